"""Tests for @SCENARIO(group/name)@ (tools/looplab_tools/book/scenarios.py):
finding the placeholder, its lint, the fragment that replaces it and the
expected lines it writes. The scenarios are made up in a temporary tree,
except one real twin read to check the \\include paths Doxygen will resolve.

Run from the repo root:  make test-tools
"""
import tempfile
import unittest
from pathlib import Path

try:
    from looplab_tools.book import scenarios
    from looplab_tools.book.config import BOOK, ROOT, Edition
    from looplab_tools.book.pages import Page, page_text
    from looplab_tools.book.sources import resolve_example
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")

CPP = """// A made-up scenario.
LOOPLAB_SCENARIO(made_up) {{}}
{expect}
"""
PY = '''"""A made-up scenario: it prints what it is told.

More about it.
"""
print("a")
'''


def make_tree(root, expect="// expect: a\n// expect: b", python=PY, group="g", name="made_up"):
    """A tree at `root` with one scenario twin, group/name."""
    cpp = root / "tests" / "scenarios" / group / f"{name}.cpp"
    py = root / "comparisons" / "scenarios" / group / f"{name}.py"
    cpp.parent.mkdir(parents=True)
    py.parent.mkdir(parents=True)
    cpp.write_text(CPP.format(expect=expect))
    if python is not None:
        py.write_text(python)
    return scenarios.Scenario(group, name, root)


def page(text, name="04_pollers.md", label="ch04"):
    return Page(BOOK / name, label, "Chapter 4: Pollers", f"# Chapter 4: Pollers {{#{label}}}\n\n{text}\n")


class PlaceholderTest(unittest.TestCase):
    def test_alone_on_its_line(self):
        found = scenarios.placeholders("text\n@SCENARIO(io/reader_runs)@\nmore\n")
        self.assertEqual([(n, s.key, t) for n, s, t in found], [(2, "io/reader_runs", "@SCENARIO(io/reader_runs)@")])

    def test_inside_a_sentence_or_malformed(self):
        found = scenarios.placeholders("see @SCENARIO(io/x)@ here\n@SCENARIO(io)@\n@SCENARIO(io/X-Y)@\n")
        self.assertEqual([(n, s) for n, s, _ in found], [(1, None), (2, None), (3, None)])

    def test_code_is_not_a_placeholder(self):
        text = "`@SCENARIO(io/x)@` in a code span\n```\n@SCENARIO(io/y)@\n```\n"
        self.assertEqual(scenarios.placeholders(text), [])


class LintTest(unittest.TestCase):
    def lint(self, text, root):
        errors = []
        scenarios.lint_scenarios({"ch04": page(text)}, errors, root)
        return errors

    def test_a_good_scenario(self):
        with tempfile.TemporaryDirectory() as tmp:
            make_tree(Path(tmp))
            self.assertEqual(self.lint("@SCENARIO(g/made_up)@", Path(tmp)), [])

    def test_missing_twin_and_no_expect_lines(self):
        with tempfile.TemporaryDirectory() as tmp:
            make_tree(Path(tmp), expect="// nothing expected", python=None)
            errors = self.lint("@SCENARIO(g/made_up)@", Path(tmp))
        self.assertEqual(len(errors), 2, errors)
        self.assertIn("book/04_pollers.md:3: @SCENARIO(g/made_up)@: no CPython twin "
                      "comparisons/scenarios/g/made_up.py", errors[0])
        self.assertIn("no '// expect:' lines", errors[1])

    def test_an_unknown_scenario(self):
        with tempfile.TemporaryDirectory() as tmp:
            errors = self.lint("@SCENARIO(g/nothing)@", Path(tmp))
        self.assertEqual(len(errors), 2)
        self.assertIn("no C++ program tests/scenarios/g/nothing.cpp", errors[0])

    def test_not_alone_on_its_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            make_tree(Path(tmp))
            errors = self.lint("as @SCENARIO(g/made_up)@ shows", Path(tmp))
        self.assertEqual(len(errors), 1)
        self.assertIn("alone on its", errors[0])


class FragmentTest(unittest.TestCase):
    def test_both_print_the_same(self):
        with tempfile.TemporaryDirectory() as tmp:
            scenario = make_tree(Path(tmp))
            generated = Path(tmp) / "generated"
            text = scenarios.fragment(scenario, generated)
            self.assertEqual((generated / "scenario_g_made_up.txt").read_text(), "a\nb\n")
        self.assertIn("**Scenario `made_up`**: A made-up scenario: it prints what it is told.", text)
        self.assertIn("\\include scenarios/g/made_up.cpp", text)
        self.assertIn("\\include scenarios/g/made_up.py", text)
        self.assertIn("\\verbinclude scenario_g_made_up.txt", text)
        self.assertIn("What both print", text)
        self.assertNotIn("virtual clock", text)

    def test_the_runs_differ_on_purpose(self):
        with tempfile.TemporaryDirectory() as tmp:
            scenario = make_tree(Path(tmp), expect="// expect: a\n// expect-cpp: c++\n// expect-cpython: py\n"
                                                   "// expect-stderr: boom")
            generated = Path(tmp) / "generated"
            text = scenarios.fragment(scenario, generated)
            self.assertEqual((generated / "scenario_g_made_up_cpp.txt").read_text(), "a\nc++\n")
            self.assertEqual((generated / "scenario_g_made_up_cpython.txt").read_text(), "a\npy\n")
            self.assertFalse((generated / "scenario_g_made_up.txt").exists())
        self.assertIn("\\verbinclude scenario_g_made_up_cpp.txt", text)
        self.assertIn("\\verbinclude scenario_g_made_up_cpython.txt", text)
        self.assertIn("`boom`", text)

    def test_a_twin_on_the_virtual_clock_says_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            scenario = make_tree(Path(tmp), python=PY + "from virtual_clock import new_virtual_loop\n")
            text = scenarios.fragment(scenario, Path(tmp) / "generated")
        self.assertIn("virtual_clock.py", text)

    def test_a_real_twin_is_included_by_paths_the_book_resolves(self):
        twins = sorted((ROOT / "tests" / "scenarios").glob("*/*.cpp"))
        if not twins:
            self.skipTest("no scenario in this tree")
        scenario = scenarios.Scenario(twins[0].parent.name, twins[0].stem)
        self.assertEqual(scenarios.problems(scenario), [])
        with tempfile.TemporaryDirectory() as tmp:
            text = scenarios.fragment(scenario, Path(tmp))
        includes = [line.split()[1] for line in text.splitlines() if line.startswith("\\include ")]
        self.assertEqual([resolve_example(name) for name in includes], [[scenario.cpp], [scenario.python]])


class ReplaceTest(unittest.TestCase):
    def test_only_the_placeholder_line_is_replaced(self):
        text = "before\n@SCENARIO(g/made_up)@\n`@SCENARIO(g/made_up)@`\nafter\n"
        replaced = scenarios.replace_scenarios(text, {"g/made_up": "FRAGMENT\nLINES"})
        self.assertEqual(replaced, "before\nFRAGMENT\nLINES\n`@SCENARIO(g/made_up)@`\nafter\n")

    def test_page_text_replaces_it(self):
        chapter = page("@SCENARIO(g/made_up)@")
        pages = {"mainpage": page("", "index.md", "mainpage"), "ch04": chapter}
        text = page_text(chapter, pages, ["mainpage", "ch04"], {"SCENARIO": {"g/made_up": "FRAGMENT"}})
        self.assertIn("\nFRAGMENT\n", text)
        self.assertNotIn("@SCENARIO", text)

    def test_generate_for_the_pages(self):
        with tempfile.TemporaryDirectory() as tmp:
            make_tree(Path(tmp))
            edition = Edition("reader", Path(tmp) / "out")
            fragments = scenarios.generate_scenarios({"ch04": page("@SCENARIO(g/made_up)@")}, edition, Path(tmp))
            self.assertEqual(list(fragments), ["g/made_up"])
            self.assertTrue((edition.generated / "scenario_g_made_up.txt").is_file())


if __name__ == "__main__":
    unittest.main()
