"""Tests for what tools/book generates besides the benchmarks: the sources as
each edition shows them (and as the API reference lists them), the pieces of
@STAGE_DIFF(NN)@ and @TESTS(NN)@, and the one-line descriptions of files.

Run from the repo root:  make test-tools
"""
import subprocess
import tempfile
import unittest
from pathlib import Path

try:
    from looplab_tools.book import describe, diffs, tests_fragment
    from looplab_tools.book.config import BOOK, ROOT, Edition, edition
    from looplab_tools.book.sources import REGIONS, book_view, groups_since, source_listing, stages
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")


class SourceViewTest(unittest.TestCase):
    def test_source_listing_blanks_marker_lines(self):
        text = "int a;\n// [shown]\nint b;\n  // [shown]\nint c;\n"
        listing = source_listing(text, edition("reader"))
        self.assertEqual(listing, "int a;\n\nint b;\n\nint c;\n")
        self.assertEqual(len(listing.splitlines()), len(text.splitlines()), "Doxygen's line numbers still hold")

    def test_editions_show_a_region_differently(self):
        if not REGIONS:
            self.skipTest("no assignment region declared")
        region = next(iter(REGIONS.values()))
        path = ROOT / region.stage.path / region.file
        reader = book_view(path.read_text(), edition("reader"), str(path))
        course = book_view(path.read_text(), edition("course"), str(path))
        self.assertNotEqual(reader, course)
        self.assertNotIn(f"[{region.name}]", reader, "no edition shows a region's marker lines")
        self.assertNotIn(f"[{region.name}]", course)

    def test_without_snippet_markers(self):
        self.assertEqual(diffs.without_snippet_markers("a\n// [m]\nb\n# [m]\nc // [not a marker line]\n"),
                         "a\nb\nc // [not a marker line]\n")


class DiffTest(unittest.TestCase):
    def test_colored_diff(self):
        html = diffs.colored_diff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old <a>\n+new\n same")
        self.assertEqual(html.splitlines(), [
            '<span class="diff-file">diff --git a/x b/x</span>',
            '<span class="diff-file">--- a/x</span>',
            '<span class="diff-file">+++ b/x</span>',
            '<span class="diff-hunk">@@ -1 +1 @@</span>',
            '<span class="diff-del">-old &lt;a&gt;</span>',
            '<span class="diff-add">+new</span>',
            '<span class="diff-ctx"> same</span>'])

    def test_a_first_stage_lists_its_files(self):
        first = stages()[1]
        text = diffs.first_stage_files(first, edition("reader"))
        self.assertIn(f"Stage {first.num} is the first stage", text)
        for name in diffs.stage_sources(first):
            self.assertIn(f"| `{name}` |", text)


class TestsFragmentTest(unittest.TestCase):
    def test_every_chapter(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Edition("reader", Path(tmp))
            out.generated.mkdir()
            fragments = tests_fragment.generate_tests(out)
            self.assertEqual(sorted(fragments), sorted(stages()))
            for number, text in fragments.items():
                self.assertEqual((out.generated / f"tests_{number:02d}.md").read_text(), text + "\n")
                self.assertIn(f"ctest --preset dev -L stage{number:02d}", text)
                for group in groups_since(number):
                    self.assertIn(f"The group `{group}` (since stage {number:02d}", text)


class DescribeTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)

    def file(self, name, text):
        path = self.tmp / name
        path.write_text(text)
        return path

    def test_describe_file(self):
        path = self.file("loop.cpp", "// loop.cpp: the loop itself. More words.\nint x;\n")
        self.assertEqual(describe.describe_file(path), "the loop itself")
        self.assertEqual(describe.describe_file(self.file("empty.cpp", "")), "")

    def test_docstrings(self):
        path = self.file("twin.py", '"""call_soon_batch: schedule a batch of\ncallbacks and run them.\n\nMore."""\n')
        self.assertEqual(describe.first_docstring_line(path), "schedule a batch of callbacks and run them.")
        title = self.file("runner.py", '"""difftest: the runner.\n\nIt compares two traces. Then more."""\n')
        self.assertEqual(describe.docstring_summary(title), "It compares two traces.")

    def test_benchmark_comment(self):
        text = "// timers_due: N timers come due in one turn. Then more.\n// still the first paragraph\n"
        self.assertEqual(describe.benchmark_comment(text, "timers_due"), "N timers come due in one turn")
        self.assertEqual(describe.benchmark_comment(text, "other"), "")

    def test_md_cell(self):
        self.assertEqual(describe.md_cell("a | b"), "a \\| b")


class CommandLineTest(unittest.TestCase):
    def test_filter_source_through_the_launcher(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "x.cpp"
            source.write_text("int a;\n// [shown]\nint b;\n// [shown]\n")
            result = subprocess.run([str(ROOT / "tools" / "book"), "filter-source", "--edition", "course",
                                     str(source)], capture_output=True, text=True, timeout=60)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        self.assertEqual(result.stdout, "int a;\n\nint b;\n\n")

    def test_unknown_edition(self):
        result = subprocess.run([str(ROOT / "tools" / "book"), "build", "--edition", "teacher"],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("invalid choice: 'teacher'", result.stderr)


if __name__ == "__main__":
    unittest.main()
