"""Tests for a workload that a looplab program also measured once per
configuration ("threadsafe_flood/eventfd/once_per_drain" next to
"threadsafe_flood"): looplab_report.record keeps the variants apart from the
workload's row, summary.json has them under "_variants", and report.md shows
them under the workload's table.

Run from the repo root:  make test-tools
"""
import json
import tempfile
import unittest
from pathlib import Path

from looplab_report import markdown, record, summary
from looplab_report.gbench import Outcome
from looplab_report.model import Implementation, Report, Results
from looplab_report.plan import Job

STAGE = Implementation("looplab_s09", "looplab stage 09", "looplab", "cpython_asyncio", stage=9)
ASYNCIO = Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio")
FLOOD = {"threadsafe_flood": 100.0,
         "threadsafe_flood/socketpair/every_post": 400.0,
         "threadsafe_flood/eventfd/once_per_drain": 100.5,
         "threadsafe_flood/epoll": 101.0,             # a backend row, not a variant
         "timers/8": 10.0, "timers/64": 30.0}         # arguments: folded, as before
LABELS = {"threadsafe_flood": "eventfd/once_per_drain: 3 self-pipe writes per 1,000 posts",
          "threadsafe_flood/socketpair/every_post": "socketpair/every_post: 1000 self-pipe writes "
                                                    "per 1,000 posts"}


def recorded():
    results = Results()
    results.impls[STAGE.id] = STAGE
    results.impls[ASYNCIO.id] = ASYNCIO
    outcome = Outcome({key: {"real_time": ns} for key, ns in FLOOD.items()}, LABELS, {}, {})
    problems = record.record_benchmarks(Job(STAGE, "c++ bench_s09", ["bench"], Path("/x.json"), 1),
                                        outcome, results)
    return results, problems


class RecordVariants(unittest.TestCase):
    def test_the_row_is_the_workload_and_the_configurations_are_variants(self):
        results, problems = recorded()
        self.assertEqual(problems, [])
        self.assertEqual(results.ns_per_op["threadsafe_flood"],
                         {"looplab_s09": 100.0, "looplab_s09_epoll": 101.0})  # the backend's own row
        self.assertEqual(results.notes["threadsafe_flood"]["looplab_s09"], LABELS["threadsafe_flood"])
        self.assertEqual(results.variants, {"threadsafe_flood": {"looplab_s09": {
            "socketpair/every_post": {"ns_per_op": 400.0,
                                      "note": LABELS["threadsafe_flood/socketpair/every_post"]},
            "eventfd/once_per_drain": {"ns_per_op": 100.5}}}})
        self.assertEqual(results.ns_per_op["timers"], {"looplab_s09": 20.0})  # the median, no variants
        self.assertNotIn("timers", results.variants)

    def test_summary_json(self):
        results, _ = recorded()
        content = summary.summary(results)
        self.assertEqual(content["_variants"]["threadsafe_flood"]["looplab_s09"]["socketpair/every_post"],
                         {"ns_per_op": 400.0, "note": LABELS["threadsafe_flood/socketpair/every_post"]})
        json.dumps(content)  # it must be writable as JSON

    def test_no_variants_no_key(self):
        self.assertNotIn("_variants", summary.summary(Results()))

    def test_report_md_shows_them_under_the_workload(self):
        results, _ = recorded()
        with tempfile.TemporaryDirectory() as out:
            text = markdown.write_markdown(Report(results, [], {}, None, Path(out)))
        section = text[text.index("## threadsafe_flood"):]
        self.assertIn("Also measured once per configuration (`threadsafe_flood/<configuration>`)", section)
        self.assertIn("| looplab stage 09 | socketpair/every_post | 400 |", section)
        self.assertIn("| looplab stage 09 | eventfd/once_per_drain | 100 |", section)


if __name__ == "__main__":
    unittest.main()
