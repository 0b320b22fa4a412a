"""Tests for looplab_report.partial: a run of some stages, and its merge into
the book's reference report.

Run from the repo root:  make test-tools
"""
import json
import re
import tempfile
import unittest
from pathlib import Path

from looplab_report import discover, partial


class Selection(unittest.TestCase):
    def test_stages_parse_and_bad_ones_are_refused(self):
        self.assertEqual(partial.parse_stages("10,09"), [9, 10])
        for bad in ("", "nine", "9;10"):
            with self.assertRaises(ValueError):
                partial.parse_stages(bad)

    def test_each_stage_runs_only_the_workloads_of_the_groups_it_introduces(self):
        cpp = [(stage, Path(f"bench_s{stage:02d}")) for stage in range(1, 11)]
        chosen, filters, twins, _, groups = partial.select([9, 10], cpp, discover.find_twins(), [])
        self.assertEqual([stage for stage, _ in chosen], [9, 10])
        self.assertEqual(groups, {"threadsafe", "executor"})
        self.assertEqual({twin.group for twin in twins}, {"threadsafe", "executor"})
        nine = re.compile(filters[9])
        self.assertTrue(nine.match("threadsafe_flood/eventfd/every_post/real_time"))
        self.assertTrue(nine.match("threadsafe_pingpong_pinned/real_time"))
        self.assertFalse(nine.match("executor_roundtrip/real_time"))  # stage 10's
        self.assertFalse(nine.match("threadsafe_flood_x"))

    def test_native_programs_follow_their_chapter(self):
        native = [(None, Path("bin/libuv_threadsafe")), (None, Path("bin/libuv_pingpong"))]
        _, _, _, kept, _ = partial.select([9], [], [], native)
        self.assertEqual([binary.name for _, binary in kept], ["libuv_threadsafe"])


class Merge(unittest.TestCase):
    def write(self, directory, summary, impls, header, charts=()):
        (directory / "charts").mkdir(parents=True)
        for name, content in (("summary.json", summary), ("implementations.json", impls),
                              ("header.json", header)):
            (directory / name).write_text(json.dumps(content))
        for chart in charts:
            (directory / "charts" / chart).write_text(f"<svg>{directory.name}</svg>")

    def test_a_partial_run_adds_its_figures_and_keeps_the_rest(self):
        with tempfile.TemporaryDirectory() as tmp:
            run, reference = Path(tmp) / "run", Path(tmp) / "reference"
            self.write(reference,
                       {"call_soon_batch": {"looplab_s01": 15.0, "cpython_asyncio": 1200.0},
                        "threadsafe_flood": {"cpython_asyncio": 9000.0},
                        "_targets": [{"id": "old", "value": 2.0}, {"id": "t:flood", "value": 9.0}]},
                       {"cpython_asyncio": {"label": "CPython", "notes": {"a": "kept"}}},
                       {"date": "2026-12-02", "mode": "full"}, charts=["call_soon.svg"])
            self.write(run,
                       {"threadsafe_flood": {"looplab_s09": 130.0, "cpython_asyncio": 10400.0},
                        "_targets": [{"id": "t:flood", "value": 2.5}, {"id": "unmeasured", "value": None}]},
                       {"cpython_asyncio": {"label": "CPython", "notes": {"b": "added"}},
                        "looplab_s09": {"label": "looplab stage 09"}},
                       {"date": "2026-12-03", "mode": "full", "stages": "09", "machine": "m"},
                       charts=["call_soon.svg", "threadsafe.svg"])
            partial.merge_into_reference(run, reference)
            summary = json.loads((reference / "summary.json").read_text())
            self.assertEqual(summary["call_soon_batch"], {"looplab_s01": 15.0, "cpython_asyncio": 1200.0})
            self.assertEqual(summary["threadsafe_flood"], {"looplab_s09": 130.0, "cpython_asyncio": 10400.0})
            self.assertEqual(sorted((t["id"], t["value"]) for t in summary["_targets"]),
                             [("old", 2.0), ("t:flood", 2.5)])
            impls = json.loads((reference / "implementations.json").read_text())
            self.assertEqual(impls["cpython_asyncio"]["notes"], {"a": "kept", "b": "added"})
            self.assertIn("looplab_s09", impls)
            header = json.loads((reference / "header.json").read_text())
            self.assertEqual(header["date"], "2026-12-02")
            self.assertEqual(header["partial runs"],
                             [{"stages": "09", "date": "2026-12-03", "mode": "full", "machine": "m"}])
            # A chart of the whole report is not redrawn from a part of it; a new one is added.
            self.assertEqual((reference / "charts" / "call_soon.svg").read_text(), "<svg>reference</svg>")
            self.assertEqual((reference / "charts" / "threadsafe.svg").read_text(), "<svg>run</svg>")
            # Merging the same stages again replaces their line, not adds one.
            partial.merge_into_reference(run, reference)
            header = json.loads((reference / "header.json").read_text())
            self.assertEqual(len(header["partial runs"]), 1)


if __name__ == "__main__":
    unittest.main()
