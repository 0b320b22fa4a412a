"""Tests for tools/stage, each on a throwaway git repo with three fake stages.

Run from the repo root:  make test-tools
"""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from looplab_tools import stage as stage_tool

TOOL = Path(__file__).resolve().parents[2] / "tools" / "stage"  # the launcher
GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}

LOOP_01 = "".join(f"loop line {i}\n" for i in range(1, 11))
LOOP_02 = LOOP_01.replace("loop line 5\n", "loop line 5 with timers\n")
UTIL_01 = "util one\nutil two\nutil three\n"
UTIL_03 = UTIL_01 + "util four (stage 3)\n"
FEATURES = ("# feature groups\n"
            "[groups]\n"
            "a_group = 1\n"
            "\n"
            "b_group = 2  # timers\n"
            "c_group = 3\n")


def manifest(title, parent, changed):
    listed = ", ".join(f'"{c}"' for c in changed)
    return f'title = "{title}"\nparent = "{parent}"\nchanged = [{listed}]\n'


class StageToolTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        files = {
            "stages/01_a/stage.toml": manifest("A", "", []),
            "stages/01_a/README.txt": "readme v1\n",
            "stages/01_a/src/loop.txt": LOOP_01,
            "stages/01_a/src/util.txt": UTIL_01,
            "stages/02_b/stage.toml": manifest("B", "01_a", ["src/loop.txt"]),
            "stages/02_b/README.txt": "readme v1\n",
            "stages/02_b/src/loop.txt": LOOP_02,
            "stages/02_b/src/util.txt": UTIL_01,
            "stages/03_c/stage.toml": manifest("C", "02_b", ["src/util.txt"]),
            "stages/03_c/README.txt": "readme v1\n",
            "stages/03_c/src/loop.txt": LOOP_02,
            "stages/03_c/src/util.txt": UTIL_03,
            "CMakeLists.txt": "project(fake)\n",
            "README.md": "# fake\n",
            "features.toml": FEATURES,
            "common/common.h": "// common\n",
            "tools/helper.py": "# helper\n",
            "tests/CMakeLists.txt": "# tests\n",
            "tests/support/h.txt": "support\n",
            "tests/a_group/t.txt": "a\n",
            "tests/scenarios/b_group/s.txt": "b\n",
            "tests/c_group/t.txt": "c\n",
            "bench/c_group/b.txt": "c\n",
            "bench/CMakeLists.txt": "# bench\n",
            "comparisons/run.py": "# run\n",
            "comparisons/asyncio/b_group/x.py": "# b\n",
            "comparisons/asyncio/c_group/x.py": "# c\n",
        }
        for rel, text in files.items():
            self.write(rel, text)
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "fake stages")
        # droppings, created after the commit, must be ignored everywhere
        self.write("stages/02_b/src/__pycache__/x.pyc", "junk")
        self.write("stages/03_c/src/util.txt~", "junk")

    # helpers
    def git(self, *args):
        subprocess.run(["git", *args], cwd=self.root, env=GIT_ENV, check=True)

    def write(self, rel, text):
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def read(self, rel):
        return (self.root / rel).read_text()

    def stage(self, *args, root=None):
        res = subprocess.run([str(TOOL), "--root", str(root or self.root), *args],
                             env=GIT_ENV, capture_output=True, text=True)
        return res.returncode, res.stdout + res.stderr

    def assertCheck(self, expected_rc, *needles):
        rc, out = self.stage("check")
        self.assertEqual(rc, expected_rc, out)
        for needle in needles:
            self.assertIn(needle, out)
        return out

    # list / check
    def test_list(self):
        rc, out = self.stage("list")
        self.assertEqual(rc, 0, out)
        lines = out.splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("02_b", lines[1])
        self.assertIn("01_a", lines[1])
        self.assertIn("(1 changed)", lines[1])

    def test_consistent_tree_passes(self):
        self.assertCheck(0, "stage check: 3 stages consistent")

    def test_drifted_inherited_copy_is_caught(self):
        self.write("stages/03_c/README.txt", "readme edited in 03 only\n")
        out = self.assertCheck(1, "stages/03_c/README.txt", "not declared changed")
        self.assertIn("add it to changed in stages/03_c/stage.toml", out)
        self.assertIn("tools/stage propagate 02", out)

    def test_conflict_markers_left_by_propagate_are_caught(self):
        # A changed file that propagate could not merge keeps git's markers.
        self.write("stages/03_c/src/util.txt", "<<<<<<< mine\nutil 02\n=======\nutil 01\n>>>>>>> theirs\n")
        self.assertCheck(1, "stages/03_c/src/util.txt", "conflict markers")

    def test_declared_change_passes(self):
        self.write("stages/03_c/README.txt", "readme edited in 03\n")
        self.write("stages/03_c/stage.toml", manifest("C", "02_b", ["src/util.txt", "README.txt"]))
        self.assertCheck(0)

    def test_stale_declaration_is_caught(self):
        self.write("stages/02_b/stage.toml", manifest("B", "01_a", ["src/loop.txt", "README.txt"]))
        self.assertCheck(1, "stages/02_b/README.txt", "declared as changed but identical")

    def test_missing_parent_file_is_caught(self):
        (self.root / "stages/02_b/src/util.txt").unlink()
        self.assertCheck(1, "stages/02_b/src/util.txt", "add it to removed")
        self.write("stages/02_b/stage.toml",
                   manifest("B", "01_a", ["src/loop.txt"]) + 'removed = ["src/util.txt"]\n')
        # 03_c still has util.txt, now a file of its own: declared changed, so fine
        self.assertCheck(0)

    def test_unknown_parent_is_caught(self):
        self.write("stages/03_c/stage.toml", manifest("C", "02_zz", ["src/util.txt"]))
        self.assertCheck(1, "parent '02_zz' does not exist")

    # diff
    def test_diff_shows_only_the_chapter(self):
        rc, out = self.stage("diff", "2")
        self.assertEqual(rc, 0, out)
        self.assertIn("--- a/01_a/src/loop.txt", out)
        self.assertIn("+++ b/02_b/src/loop.txt", out)
        self.assertIn("-loop line 5\n+loop line 5 with timers\n", out)
        self.assertNotIn("README", out)
        self.assertNotIn("util", out)
        self.assertNotIn("stage.toml", out)
        rc, out = self.stage("diff", "03_c", "--stat")
        self.assertEqual(rc, 0, out)
        self.assertIn("src/util.txt | +1 -0", out)
        self.assertNotIn("@@", out)

    def test_usage_errors(self):
        self.assertEqual(self.stage("diff", "7")[0], 2)
        self.assertEqual(self.stage("frobnicate")[0], 2)

    # propagate
    def test_propagate_without_conflict(self):
        self.write("stages/01_a/README.txt", "readme v2\n")
        self.write("stages/01_a/src/loop.txt", LOOP_01.replace("loop line 9\n", "loop line 9!\n"))
        self.write("stages/01_a/src/new.txt", "brand new\n")
        rc, out = self.stage("propagate", "01", "--dry-run")
        self.assertEqual(rc, 0, out)
        self.assertIn("would copy", out)
        self.assertEqual(self.read("stages/03_c/README.txt"), "readme v1\n")  # untouched

        rc, out = self.stage("propagate", "01")
        self.assertEqual(rc, 0, out)
        merged = LOOP_02.replace("loop line 9\n", "loop line 9!\n")
        for s in ("02_b", "03_c"):
            self.assertEqual(self.read(f"stages/{s}/README.txt"), "readme v2\n")
            self.assertEqual(self.read(f"stages/{s}/src/new.txt"), "brand new\n")
            self.assertEqual(self.read(f"stages/{s}/src/loop.txt"), merged)
            self.assertIn(f"stages/{s}/README.txt", out)
        self.assertIn("merge", out)
        self.assertEqual(self.read("stages/03_c/src/util.txt"), UTIL_03)
        self.assertCheck(0)

    def test_propagate_merges_into_declared_change_downstream(self):
        self.write("stages/02_b/src/util.txt", "util zero\n" + UTIL_01)
        self.write("stages/02_b/stage.toml",
                   manifest("B", "01_a", ["src/loop.txt", "src/util.txt"]))
        rc, out = self.stage("propagate", "02_b")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.read("stages/03_c/src/util.txt"), "util zero\n" + UTIL_03)
        self.assertCheck(0)

    def test_propagate_with_conflict_stops(self):
        self.write("stages/01_a/README.txt", "readme v2\n")
        self.write("stages/01_a/src/loop.txt",
                   LOOP_01.replace("loop line 5\n", "loop line 5 edited in 01\n"))
        rc, out = self.stage("propagate", "1")
        self.assertEqual(rc, 1, out)
        self.assertIn("CONFLICT", out)
        self.assertIn("stages/02_b/src/loop.txt", out)
        self.assertIn("tools/stage propagate 02", out)
        self.assertIn("<<<<<<<", self.read("stages/02_b/src/loop.txt"))
        self.assertEqual(self.read("stages/02_b/README.txt"), "readme v2\n")
        # the later stage is left alone
        self.assertEqual(self.read("stages/03_c/README.txt"), "readme v1\n")
        self.assertEqual(self.read("stages/03_c/src/loop.txt"), LOOP_02)

        # resolve, then continue from 02
        resolved = LOOP_01.replace("loop line 5\n", "loop line 5 edited, with timers\n")
        self.write("stages/02_b/src/loop.txt", resolved)
        rc, out = self.stage("propagate", "02")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.read("stages/03_c/src/loop.txt"), resolved)
        self.assertEqual(self.read("stages/03_c/README.txt"), "readme v2\n")
        self.assertCheck(0)

    def test_propagate_refuses_to_overwrite_a_drifted_copy(self):
        self.write("stages/03_c/README.txt", "edited in 03 without declaring it\n")
        self.write("stages/01_a/README.txt", "readme v2\n")
        rc, out = self.stage("propagate", "01")
        self.assertEqual(rc, 1, out)
        self.assertIn("stages/03_c/README.txt: not updated", out)
        self.assertEqual(self.read("stages/02_b/README.txt"), "readme v2\n")
        self.assertEqual(self.read("stages/03_c/README.txt"), "edited in 03 without declaring it\n")

    # export
    def test_export(self):
        dest = self.root / "out"  # inside the repo on purpose: must not copy itself
        rc, out = self.stage("export", "02", str(dest))
        self.assertEqual(rc, 0, out)
        self.assertIn("cmake --preset dev", out)
        copied = {p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()}
        for rel in ("CMakeLists.txt", "README.md", "common/common.h", "tools/helper.py",
                    "stages/02_b/stage.toml", "stages/02_b/src/loop.txt",
                    "tests/CMakeLists.txt", "tests/support/h.txt", "tests/a_group/t.txt",
                    "tests/scenarios/b_group/s.txt", "bench/CMakeLists.txt",
                    "comparisons/run.py", "comparisons/asyncio/b_group/x.py"):
            self.assertIn(rel, copied)
        for rel in copied:
            self.assertFalse(rel.startswith(("stages/01_a", "stages/03_c", "out/", ".git/")), rel)
            self.assertNotIn("c_group", rel)
            self.assertNotIn("__pycache__", rel)
        features = (dest / "features.toml").read_text()
        self.assertEqual(features, FEATURES.replace("c_group = 3\n", ""))
        # the exported stage stands alone: it passes check there
        self.assertIn('parent = ""', (dest / "stages/02_b/stage.toml").read_text())
        rc, out = self.stage("check", root=dest)
        self.assertEqual(rc, 0, out)
        # a non-empty target is refused
        self.assertEqual(self.stage("export", "02", str(dest))[0], 2)

    def test_export_function(self):
        tool = stage_tool
        with tempfile.TemporaryDirectory() as tmp:
            files = tool.export_stage(self.root, "3", Path(tmp) / "course")
            self.assertIn("tests/c_group/t.txt", files)
            self.assertIn("stages/03_c/src/util.txt", files)
            self.assertTrue((Path(tmp) / "course/bench/c_group/b.txt").is_file())

    # assignment regions
    def add_region(self):
        """Stage 02 declares a region of its loop; the region is marked in 02 and 03."""
        marked = LOOP_02.replace("loop line 5 with timers\n",
                                 "  // [timers_body]\n  loop line 5 with timers\n  // [timers_body]\n")
        for s in ("02_b", "03_c"):
            self.write(f"stages/{s}/src/loop.txt", marked)
        self.write("stages/02_b/assignment/regions.toml",
                   '[regions.timers_body]\nfile = "src/loop.txt"\nstub = \'\'\'\n// TODO(chapter 2): timers\n\'\'\'\n')
        return marked

    def test_regions_pass_check_and_are_not_inherited(self):
        self.add_region()
        # the assignment folder is the stage's own: 03_c need not copy it
        self.assertCheck(0, "stage check: 3 stages consistent")
        tool = stage_tool
        regions = tool.load_regions(self.root)
        self.assertEqual(list(regions), ["timers_body"])
        self.assertEqual(regions["timers_body"].chapter, 2)
        self.assertEqual(regions["timers_body"].stub, "// TODO(chapter 2): timers\n")

    def test_replace_regions_indents_the_stub(self):
        marked = self.add_region()
        tool = stage_tool
        regions = tool.load_regions(self.root)
        starter = tool.replace_regions(
            marked, regions, lambda r, indent, markers, body: [markers[0], *tool.indented(r.stub, indent), markers[1]])
        self.assertIn("  // [timers_body]\n  // TODO(chapter 2): timers\n  // [timers_body]\n", starter)
        self.assertNotIn("with timers", starter)

    def test_a_region_whose_markers_went_is_caught(self):
        self.add_region()
        self.write("stages/02_b/src/loop.txt", LOOP_02)
        self.write("stages/03_c/src/loop.txt", LOOP_02)
        self.assertCheck(1, "[regions.timers_body]", "the stub no longer applies")

    def test_a_region_marked_once_is_caught(self):
        marked = self.add_region()
        once = marked.replace("  // [timers_body]\n", "", 1)
        self.write("stages/02_b/src/loop.txt", once)
        self.write("stages/03_c/src/loop.txt", once)
        self.assertCheck(1, "timers_body has one marker line, not two")

    def test_assignment_text_in_reference_code_is_caught(self):
        self.write("stages/03_c/src/extra.cpp", "int x;\n// BEGIN SOLUTION 03\n")
        self.write("stages/03_c/stage.toml", manifest("C", "02_b", ["src/util.txt", "src/extra.cpp"]))
        self.assertCheck(1, "stages/03_c/src/extra.cpp:2: assignment text in the reference code")

    def test_export_leaves_the_assignment_folder_out(self):
        self.add_region()
        dest = self.root / "out"
        rc, out = self.stage("export", "02", str(dest))
        self.assertEqual(rc, 0, out)
        self.assertFalse((dest / "stages/02_b/assignment").exists())


if __name__ == "__main__":
    unittest.main()
