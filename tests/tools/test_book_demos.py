"""Tests for the programs whose output the book shows (tools/looplab_tools/book/demos.py):
which ones the build runs, how, where their output goes, and what the lint and
the browser check make of a page that shows it. The programs are made up in a
temporary tree; the one that runs is a Python program of a few lines.

Run from the repo root:  make test-tools
"""
import sys
import tempfile
import unittest
from pathlib import Path

try:
    from looplab_tools.book import browser, demos, lint
    from looplab_tools.book.config import BOOK, BookError, Edition
    from looplab_tools.book.pages import Page
    from looplab_tools.book.sources import resolve_example
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")

SINCE = {"timers": 2, "io": 3}


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_tree(root):
    """Two example programs (one run at build time), two Python programs."""
    write(root / "examples" / "timers" / "measure.cpp", f"// measure.cpp: it measures.\n{demos.RUN_AT_BUILD}\n")
    write(root / "examples" / "io" / "server.cpp", "// server.cpp: serves until stopped; never run for the book.\n")
    write(root / "examples" / "elsewhere" / "other.cpp", f"{demos.RUN_AT_BUILD}\n")  # a group of no stage
    write(root / "book" / "examples" / "tiny.py", "import sys\nprint('out')\nprint('err', file=sys.stderr)\n")
    write(root / "book" / "examples" / "fails.py", "raise SystemExit(3)\n")


class ProgramsTest(unittest.TestCase):
    def test_which_programs_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_tree(root)
            programs = demos.book_programs(root, SINCE)
        self.assertEqual([(p.source.relative_to(root).as_posix(), p.output, p.binary) for p in programs], [
            ("examples/timers/measure.cpp", "measure.txt", "measure_s02"),
            ("book/examples/fails.py", "fails.txt", ""),
            ("book/examples/tiny.py", "tiny.txt", "")])

    def test_generated_outputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_tree(root)
            names = demos.generated_outputs(root, SINCE)
        self.assertEqual(sorted(names), ["fails.txt", "measure.txt", "tiny.txt"])
        self.assertTrue(demos.is_generated_output("demo_s03.txt"))
        self.assertFalse(demos.is_generated_output("nothing_of_the_kind.txt"))

    def test_commands(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_tree(root)
            cpp, _, tiny = demos.book_programs(root, SINCE)
            command, cwd = demos.program_command(cpp, demo_build=root / "build")
            self.assertEqual(command, [str(root / "build" / "bin" / "measure_s02")])
            command, cwd = demos.program_command(tiny, python="/usr/bin/python3")
            self.assertEqual((command, cwd), (["/usr/bin/python3", "-u", "tiny.py"], root / "book" / "examples"))

    def test_a_python_program_runs_with_its_stderr(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_tree(root)
            _, fails, tiny = demos.book_programs(root, SINCE)
            generated = root / "generated"
            generated.mkdir()
            output = demos.run_program(tiny, generated, python=sys.executable)
            self.assertEqual(output, "out\nerr\n")
            self.assertEqual((generated / "tiny.txt").read_text(), "out\nerr\n")
            with self.assertRaises(BookError) as failure:
                demos.run_program(fails, generated, python=sys.executable)
            self.assertIn("exited with status 3", str(failure.exception))

    def test_a_name_clash_is_a_lint_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_tree(root)
            write(root / "book" / "examples" / "measure.py", "print(1)\n")
            errors = []
            lint.lint_programs(errors, root, SINCE)
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("measure.txt: written by examples/timers/measure.cpp and book/examples/measure.py", errors[0])

    def test_the_books_python_programs_are_on_doxygens_path(self):
        for program in demos.book_programs():
            if program.is_python:
                self.assertEqual(resolve_example(program.source.name), [program.source])


class BrowserTest(unittest.TestCase):
    def test_a_program_output_must_be_on_the_page(self):
        programs = [p for p in demos.book_programs() if p.is_python]
        if not programs:
            self.skipTest("the book has no Python program")
        name = programs[0].output
        page = Page(BOOK / "00_x.md", "ch00", "Chapter 0", f"# Chapter 0 {{#ch00}}\n\n\\verbinclude {name}\n")
        with tempfile.TemporaryDirectory() as tmp:
            edition = Edition("reader", Path(tmp))
            edition.generated.mkdir()
            self.assertIn("was not written", browser.check_outputs(page, "", "p.html", edition)[0])
            (edition.generated / name).write_text("\nfirst line\nsecond\n")
            self.assertEqual(browser.check_outputs(page, "x\nfirst line\n", "p.html", edition), [])
            problems = browser.check_outputs(page, "other code", "p.html", edition)
        self.assertEqual(len(problems), 1)
        self.assertIn("'first line'", problems[0])


if __name__ == "__main__":
    unittest.main()
