"""Tests for tools/book's @BENCHMARKS(NN)@ fragments, from a small report in
tests/tools/fixtures/book/report/ (summary.json, implementations.json,
header.json, one chart) and from no report at all.

Run from the repo root:  make test-tools
"""
import json
import tempfile
import unittest
from pathlib import Path

try:
    from looplab_tools.book import benchmarks
    from looplab_tools.book.config import BOOK, Edition, rel
    from looplab_tools.book.report_data import read_report, report_header
    from looplab_tools.book.sources import groups_since, stages
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "book" / "report"


class BenchmarkFragmentTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)
        self.charts = self.tmp / "charts"
        self.charts.mkdir()

    def fragment(self, report_dir, number=1):
        return benchmarks.chapter_benchmarks(stages()[number], report_dir, read_report(report_dir, self.charts))

    def test_fixture_names_stage_one_workloads(self):
        workloads = {name for group in groups_since(1) for name, _ in benchmarks.workloads_of(group)}
        summary = json.loads((FIXTURE / "summary.json").read_text())
        self.assertLessEqual(set(summary), workloads, "the fixture's workloads are stage 01's")

    def test_table_from_the_report(self):
        text = self.fragment(FIXTURE)
        self.assertIn("| workload | stage 01 | CPython asyncio | stage 01 vs asyncio | uvloop | "
                      "uvloop vs asyncio (same interpreter) |", text)
        # format_ns and ratio_text: the figures read as in the report.
        self.assertIn("| `call_soon_batch` | 79.4 | 1,373 | 17.3× faster | 815 | 1.0× slower |", text)
        self.assertIn("| `handle_cancel` | 16.7 | 546 | 32.6× faster | did not run | n/a |", text)
        self.assertIn("- `call_soon_batch`, stage 01: no I/O poll per turn: this stage has no selector", text)
        self.assertNotIn("handle_cancel`, stage 01: select", text, "a note that only names the selector")
        self.assertIn("*uvloop* is uvloop 0.17.0 (CPython 3.11.2), compared with CPython 3.11.2 asyncio", text)

    def test_header_from_header_json(self):
        text = self.fragment(FIXTURE)
        self.assertTrue(text.startswith(
            f"Nanoseconds per operation (median), from this machine's report, `{rel(FIXTURE)}` "
            "(date: 2026-12-01 18:45 UTC, mode: quick). Machine: AMD EPYC, 2 CPUs. "), text[:300])
        self.assertIn(f"`{rel(FIXTURE)}/index.html` (`make report`).", text)
        self.assertTrue(text.endswith("the reference report committed in `book/reference-report`."), text[-200:])

    def test_charts_copied_for_doxygen(self):
        text = self.fragment(FIXTURE)
        self.assertIn('\\image html bench_call_soon_batch.svg "call_soon_batch"', text)
        self.assertTrue((self.charts / "bench_call_soon_batch.svg").is_file())
        self.assertNotIn("bench_handle_cancel.svg", text, "the fixture has no such chart")

    def test_no_header_json(self):
        report = self.tmp / "report"
        report.mkdir()
        for name in ("summary.json", "implementations.json"):
            (report / name).write_text((FIXTURE / name).read_text())
        self.assertEqual(report_header(report), {})
        text = self.fragment(report)
        self.assertTrue(text.startswith(f"Nanoseconds per operation (median), from this machine's report, `{report}`. "
                                        "Ratios are measured"), text[:200])

    def test_header_as_pairs(self):
        (self.tmp / "header.json").write_text(json.dumps([["date", "today"], ["mode", "full"]]))
        self.assertEqual(report_header(self.tmp), {"date": "today", "mode": "full"})

    def test_no_report(self):
        text = self.fragment(self.tmp / "nothing")
        self.assertTrue(text.startswith("\\note The benchmark report has not been built on this machine "
                                        f"(there is no `{self.tmp / 'nothing'}/summary.json`)."), text[:200])
        self.assertIn("run `make report`", text)
        for group in groups_since(1):
            for name, _ in benchmarks.workloads_of(group):
                self.assertIn(f"| `{name}` |", text)

    def test_without_a_local_report_the_reference_fills_in_and_says_so(self):
        edition = Edition("reader", self.tmp / "out")
        fragments = benchmarks.generate_benchmarks(self.tmp / "nothing", edition, reference_dir=FIXTURE)
        text = fragments[1]
        self.assertTrue(text.startswith("Nanoseconds per operation (median), from the reference report "
                                        f"committed with the book, `{rel(FIXTURE)}`"), text[:200])
        self.assertIn("| `call_soon_batch` | 79.4 |", text)
        self.assertTrue(text.endswith("its figures replace these, and this paragraph says so."), text[-200:])

    def test_a_local_report_wins_over_the_reference(self):
        edition = Edition("reader", self.tmp / "out")
        fragments = benchmarks.generate_benchmarks(FIXTURE, edition, reference_dir=self.tmp / "nothing")
        self.assertIn("from this machine's report", fragments[1])

    def test_stage_missing_from_the_report(self):
        text = self.fragment(FIXTURE, number=2)
        self.assertIn("has no figures for stage 02 (it was built before this stage existed)", text)

    def test_a_workload_measured_per_configuration_gets_a_table_of_its_variants(self):
        report = self.tmp / "report"
        report.mkdir()
        figures = {"looplab_s09": 100.0, "cpython_asyncio": 2000.0, "libuv": 150.0}
        note = "socketpair/every_post: 1000 self-pipe writes per 1,000 posts"
        (report / "summary.json").write_text(json.dumps({
            "threadsafe_flood": figures,
            "_variants": {"threadsafe_flood": {"looplab_s09": {
                "eventfd/once_per_drain": {"ns_per_op": 100.0, "note": "eventfd/once_per_drain: 3 writes"},
                "socketpair/every_post": {"ns_per_op": 400.0, "note": note}}}}}))
        (report / "implementations.json").write_text(json.dumps({
            "looplab_s09": {"label": "looplab stage 09", "kind": "looplab",
                            "notes": {"threadsafe_flood": "eventfd/once_per_drain: 3 writes"}},
            "cpython_asyncio": {"label": "CPython 3.13.0 asyncio", "kind": "asyncio"},
            "libuv": {"label": "libuv 1.44.2 (C)", "kind": "native"}}))
        text = self.fragment(report, number=9)
        self.assertIn("| `threadsafe_flood` | 100 | 2,000 | 20.0× faster |", text)
        self.assertIn("**threadsafe_flood, per configuration.**", text)
        self.assertIn("| configuration | stage 09 | vs CPython asyncio | vs libuv 1.44.2 (C) | "
                      "what the benchmark says |", text)
        self.assertIn("| `eventfd/once_per_drain` (the default) | 100 | 20.0× faster | 1.5× faster | 3 writes |",
                      text)
        self.assertIn("| `socketpair/every_post` | 400 | 5.0× faster | 2.7× slower | "
                      "1000 self-pipe writes per 1,000 posts |", text)
        self.assertNotIn("threadsafe_pingpong, per configuration", text, "no variants measured")

    def test_generate_writes_every_chapter(self):
        edition = Edition("reader", self.tmp / "out")
        fragments = benchmarks.generate_benchmarks(FIXTURE, edition, reference_dir=self.tmp / "nothing")
        self.assertEqual(sorted(fragments), sorted(stages()))
        for number, text in fragments.items():
            self.assertEqual((edition.generated / f"benchmarks_{number:02d}.md").read_text(), text + "\n")
        self.assertTrue((edition.generated / "charts" / "bench_call_soon_batch.svg").is_file())


if __name__ == "__main__":
    unittest.main()


class NativesTargetsAndPartialRuns(unittest.TestCase):
    """A native program's column, the stage's own targets, and the date of a
    run of some stages merged into the reference (make reference-report)."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.report = Path(tmp.name) / "report"
        (self.report / "charts").mkdir(parents=True)
        summary = {"call_soon_batch": {"looplab_s01": 10.0, "cpython_asyncio": 1000.0, "libuv": 20.0},
                   "_targets": [{"stage": 1, "value": 100.0, "text": "call_soon_batch: 100x: met"},
                                {"stage": 2, "value": 1.0, "text": "another stage's"}]}
        impls = {"looplab_s01": {"label": "looplab stage 01", "kind": "looplab"},
                 "cpython_asyncio": {"label": "CPython 3.13.0 asyncio", "kind": "asyncio"},
                 "libuv": {"label": "libuv 1.44.2 (C)", "kind": "native"}}
        header = {"date": "2026-12-02", "mode": "full", "machine": "old",
                  "partial runs": [{"stages": "01, 09", "date": "2026-12-03", "mode": "full", "machine": "new"}]}
        for name, content in (("summary.json", summary), ("implementations.json", impls),
                              ("header.json", header)):
            (self.report / name).write_text(json.dumps(content))

    def fragment(self):
        data = read_report(self.report, self.report / "charts", reference=True)
        return benchmarks.chapter_benchmarks(stages()[1], self.report, data)

    def test_a_native_program_gets_a_column(self):
        text = self.fragment()
        self.assertIn("| libuv 1.44.2 (C) |", text.splitlines()[2])
        self.assertIn("| 20.0: stage 01 2.0× faster |", text)

    def test_only_the_stages_own_targets(self):
        text = self.fragment()
        self.assertIn("- call_soon_batch: 100x: met", text)
        self.assertNotIn("another stage's", text)

    def test_the_run_that_measured_the_stage_is_named(self):
        text = self.fragment()
        self.assertIn("(date: 2026-12-03, mode: full; a run of stages 01, 09, merged into it)", text)
        self.assertIn("Machine: new.", text)


class PartialLocalRun(unittest.TestCase):
    def test_chapters_a_run_of_some_stages_left_out_show_the_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            local = tmp / "report"
            local.mkdir()
            (local / "summary.json").write_text(json.dumps({"other_workload": {"looplab_s09": 1.0}}))
            (local / "implementations.json").write_text(json.dumps(
                {"looplab_s09": {"label": "looplab stage 09", "kind": "looplab"}}))
            (local / "header.json").write_text(json.dumps({"date": "today", "stages": "09"}))
            fragments = benchmarks.generate_benchmarks(local, Edition("reader", tmp / "out"), reference_dir=FIXTURE)
            self.assertIn("from the reference report committed with the book", fragments[1])
            self.assertIn("| `call_soon_batch` | 79.4 |", fragments[1])
