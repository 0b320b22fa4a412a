"""Tests for tools/assignment's region handling and grading rules (no build).

Run from the repo root:  make test-tools
"""
import tempfile
import unittest
from pathlib import Path

from looplab_tools import assignment as A
from looplab_tools import stage as stage_tool

STAGE = stage_tool.Stage("02_b", 2, "B", "01_a", [], [])
REGION = stage_tool.Region("timers_body", STAGE, "src/loop.cpp",
                           "// TODO(chapter 2): queue the due timers.\nreturn 0;\n")
SOURCE = ("int run() {\n"
          "  // [run]\n"
          "  int due = 0;\n"
          "  // [timers_body]\n"
          "  for (Timer& timer : heap_) due += timer.pop_if_due();\n"
          "  return due;\n"
          "  // [timers_body]\n"
          "  // [run]\n"
          "}\n")


class RegionTextTest(unittest.TestCase):
    def test_the_starter_holds_the_stub_between_the_markers(self):
        text = A.starter_text(SOURCE, {"timers_body": REGION}, 2)
        self.assertIn("  // [timers_body]\n  // TODO(chapter 2): queue the due timers.\n  return 0;\n"
                      "  // [timers_body]\n", text)
        self.assertNotIn("pop_if_due", text)

    def test_another_chapters_starter_keeps_the_solution(self):
        self.assertEqual(A.starter_text(SOURCE, {"timers_body": REGION}, 3), SOURCE)

    def test_the_readers_edition_drops_only_the_region_markers(self):
        text = A.book_text(SOURCE, {"timers_body": REGION}, "reader")
        self.assertNotIn("[timers_body]", text)
        self.assertIn("  // [run]\n", text)  # Doxygen needs the snippet's own markers
        self.assertIn("pop_if_due", text)

    def test_the_course_edition_shows_the_task_instead(self):
        text = A.book_text(SOURCE, {"timers_body": REGION}, "course")
        self.assertNotIn("pop_if_due", text)
        self.assertNotIn("[timers_body]", text)
        self.assertIn("  // You write this (assignment 02): queue the due timers.\n  return 0;\n", text)

    def test_an_unpaired_region_is_an_error(self):
        broken = SOURCE.replace("  // [timers_body]\n", "", 1)
        with self.assertRaises(A.AssignmentError):
            A.book_text(broken, {"timers_body": REGION}, "reader")


class GradingTest(unittest.TestCase):
    def test_groups_follow_the_labels(self):
        self.assertEqual(A.group_of({"stage05", "since05"}, 5), "new feature")
        self.assertEqual(A.group_of({"stage05", "since03"}, 5), "earlier stages")
        self.assertEqual(A.group_of({"stage05", "since05", "scenario"}, 5), "parity with CPython")
        self.assertEqual(A.group_of({"stage05", "hidden"}, 5), "hidden")
        self.assertEqual(A.group_of({"stage05", "lab"}, 5), "extension lab")
        self.assertEqual(A.group_of({"stage05", "lab", "scenario"}, 5), "extension lab")
        self.assertIsNone(A.group_of({"stage05", "lab", "cpython"}, 5))
        self.assertIsNone(A.group_of({"cpython", "scenario", "since05"}, 5))

    def test_weights_are_shared_among_the_groups_that_have_tests(self):
        groups = {"new feature": [("a", "passed", "")], "hidden": [("h", "failed", "")]}
        score, summary, _ = A.score_groups(groups)
        self.assertAlmostEqual(score, 100.0 * 60 / 85)
        self.assertAlmostEqual(summary["hidden"][2], 100.0 * 25 / 85)

    def test_hidden_tests_are_shown_once_grades_are_published(self):
        groups = {"new feature": [("a", "passed", "")], "hidden": [("h", "failed", "out")]}
        score, _, tests = A.score_groups(groups)
        results = A.gradescope(score, tests, "report", True)
        visibility = {t["name"]: t["visibility"] for t in results["tests"]}
        self.assertEqual(visibility, {"new feature: a": "visible", "hidden: h": "after_published"})

    def test_a_skipped_test_counts_neither_for_nor_against(self):
        groups = {"new feature": [("a", "passed", ""), ("b", "failed", ""),
                                  ("uring", "skipped", "x.cpp:9: Skipped\nthis machine refuses io_uring\n")]}
        score, summary, tests = A.score_groups(groups)
        self.assertAlmostEqual(score, 50.0)
        self.assertEqual(summary["new feature"][:2], (1, 2))
        results = A.gradescope(score, tests, "report", True)
        skipped = [t for t in results["tests"] if t["name"] == "new feature: uring"][0]
        self.assertEqual((skipped["score"], skipped["max_score"]), (0.0, 0.0))
        self.assertTrue(skipped["output"].startswith("skipped, not counted: this machine refuses io_uring"))

    def test_a_group_whose_tests_all_skipped_gives_its_weight_to_the_others(self):
        groups = {"new feature": [("a", "passed", "")], "hidden": [("h", "skipped", "")]}
        score, summary, _ = A.score_groups(groups)
        self.assertAlmostEqual(score, 100.0)
        self.assertNotIn("hidden", summary)

    def test_junit_skips_failures_and_passes_are_told_apart(self):
        xml = ('<testsuite><testcase name="p"/><testcase name="f"><failure message="x"/></testcase>'
               '<testcase name="s"><skipped message="y"/><system-out>Skipped\nwhy</system-out></testcase>'
               '</testsuite>')
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
            f.write(xml)
        results = A.read_junit(Path(f.name))
        Path(f.name).unlink()
        self.assertEqual({k: v[0] for k, v in results.items()}, {"p": "passed", "f": "failed", "s": "skipped"})
        self.assertEqual(A.skip_reason(results["s"][1]), "why")


class LabTest(unittest.TestCase):
    """An extension lab: lab.toml read, its regions named from the stage folder."""

    def make_lab(self, root, toml):
        lab = root / STAGE.path / A.LAB
        (lab / "src").mkdir(parents=True)
        (lab / "lab.toml").write_text(toml)
        (lab / "src" / "wheel.cpp").write_text("int f() {\n  // [wheel_body]\n  return 42;\n  // [wheel_body]\n}\n")

    def test_a_stage_without_a_lab_has_none(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(A.lab_of(STAGE, Path(tmp)), (None, {}))

    def test_lab_regions_are_named_from_the_stage_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.make_lab(Path(tmp), 'title = "W"\nhours = "2"\n[regions.wheel_body]\nfile = "src/wheel.cpp"\n'
                                     'stub = """\n// TODO(lab 02): f.\nreturn 0;\n"""\n')
            lab, known = A.lab_of(STAGE, Path(tmp))
            self.assertEqual(lab["title"], "W")
            self.assertEqual(known["wheel_body"].file, "assignment/lab/src/wheel.cpp")
            self.assertEqual(known["wheel_body"].stub, "// TODO(lab 02): f.\nreturn 0;\n")

    def test_a_lab_without_title_or_with_a_region_without_stub_is_an_error(self):
        for toml in ('hours = "2"\n', 'title = "W"\nhours = "2"\n[regions.x]\nfile = "src/wheel.cpp"\n'):
            with tempfile.TemporaryDirectory() as tmp:
                self.make_lab(Path(tmp), toml)
                with self.assertRaises(A.AssignmentError):
                    A.lab_of(STAGE, Path(tmp))


class RepositoryRegionsTest(unittest.TestCase):
    """The repository's own regions: each stage declares some, and none of their
    lines that give them away is trivial."""

    def test_every_stage_declares_regions_whose_giveaway_lines_are_found(self):
        regions = A.regions()
        if not regions:
            self.skipTest("no assignment regions in this tree (a stage exported alone)")
        chapters = {r.chapter for r in regions.values()}
        stages, _ = stage_tool.load_stages(A.ROOT)
        self.assertEqual(chapters, {s.number for s in stages.values()})
        for region in regions.values():
            lines = A.solution_lines(region)
            self.assertTrue(lines, f"region {region.name} has no line that gives it away")
            for line in lines:
                self.assertFalse(A.TRIVIAL_LINE.match(line), line)


if __name__ == "__main__":
    unittest.main()
