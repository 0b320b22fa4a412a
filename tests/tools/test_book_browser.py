"""Tests for what `tools/book check-browser` looks for in a rendered page, on
made-up DOMs (no Chromium): the navigation bars, what code may not show, the
text around it, and the code a chapter's snippets must bring onto it (taken
from the snippets themselves, never listed by hand).

Run from the repo root:  make test-tools
"""
import unittest

from looplab_tools import assignment as assignment_tool

try:
    from looplab_tools.book import browser
    from looplab_tools.book.config import BOOK, edition
    from looplab_tools.book.pages import Page
    from looplab_tools.book.sources import MARKER_LINE, REGIONS, resolve_example, snippet_lines
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")

ORDER = ["mainpage", "ch01", "assignment01", "ch02"]


def bar(where, prev=None, up="index.html", next_=None):
    def span(kind, href):
        link = f'<a class="el" href="{href}">x</a>' if href else ""
        return f'<span class="booknav-{kind}">{link}</span>'
    return (f'<div class="booknav booknav-{where}">' + span("prev", prev) + (span("up", up) if up else "")
            + span("next", next_) + "</div>")


def chapter(text):
    return Page(BOOK / "01_callback_queue.md", "ch01", "Chapter 1", f"# Chapter 1 {{#ch01}}\n\n{text}\n")


class NavigationTest(unittest.TestCase):
    def test_links_in_nav(self):
        dom = "<html>" + bar("top", "index.html", next_="assignment01.html#x") + bar("bottom") + "</html>"
        self.assertEqual(browser.links_in_nav(dom), {
            "top": {"prev": "index.html", "up": "index.html", "next": "assignment01.html"},
            "bottom": {"prev": None, "up": "index.html", "next": None}})

    def test_right_neighbours(self):
        dom = bar("top", "ch01.html", next_="ch02.html") + bar("bottom", "ch01.html", next_="ch02.html")
        self.assertEqual(browser.check_navigation(dom, ORDER, 2, "assignment01.html"), [])

    def test_front_page_needs_only_its_bottom_bar(self):
        dom = bar("bottom", up=None, next_="ch01.html")
        self.assertEqual(browser.check_navigation(dom, ORDER, 0, "index.html"), [])

    def test_wrong_and_missing(self):
        dom = bar("bottom", "index.html", next_="ch01.html")
        problems = browser.check_navigation(dom, ORDER, 3, "ch02.html")
        self.assertEqual(problems, [
            "ch02.html: no top navigation bar (div.booknav-top)",
            "ch02.html: the bottom bar's prev link is index.html, expected assignment01.html",
            "ch02.html: the bottom bar's next link is ch01.html, expected none"])


class CodeTest(unittest.TestCase):
    def test_clean_code(self):
        self.assertEqual(browser.check_code("int x = 1;\n", "ch01.html", {}, edition("reader")), [])

    def test_markers_never_show(self):
        code = "a();\n// [run_once]\n// BEGIN SOLUTION\n// TODO(chapter 1): write it\n"
        problems = browser.check_code(code, "ch01.html", {}, edition("course"))
        self.assertEqual(len(problems), 3, problems)
        self.assertTrue(any("a snippet marker line" in p for p in problems))

    def test_a_task_only_in_the_course_edition(self):
        code = f"// {assignment_tool.STUDENT_TASK} (assignment 01): the queue\n"
        self.assertEqual(len(browser.check_code(code, "ch01.html", {}, edition("reader"))), 1)
        self.assertEqual(browser.check_code(code, "ch01.html", {}, edition("course")), [])

    def test_a_solution_line_in_the_course_edition(self):
        problems = browser.check_code("  ready_.push_back(handle);\n", "ch01.html",
                                      {"ready_.push_back(handle);": "call_soon"}, edition("course"))
        self.assertEqual(problems, ["ch01.html: the course edition shows a line of the solution of region "
                                    "call_soon: 'ready_.push_back(handle);'"])


class TextTest(unittest.TestCase):
    def test_leftover_placeholder(self):
        problems = browser.check_text("<html><p>@TESTS(01)@</p></html>", "ch01.html")
        self.assertEqual(problems, ["ch01.html: a placeholder was not replaced: @TESTS(01)@"])

    def test_the_chapter_template_shows_the_syntax_on_purpose(self):
        page = "<html><p><code>@SCENARIO(group/name)@</code></p></html>"
        self.assertEqual(len(browser.check_text(page, "chapter_template.html")), 1)
        self.assertEqual(browser.check_text(page, "chapter_template.html", syntax_page=True), [])
        code = "  // [run_once]\n"
        self.assertEqual(len(browser.check_code(code, "chapter_template.html", {}, edition("reader"))), 1)
        self.assertEqual(browser.check_code(code, "chapter_template.html", {}, edition("reader"), syntax_page=True), [])

    def test_raw_command_in_prose_but_not_in_code(self):
        self.assertEqual(len(browser.check_text("<p>see \\ref ch02 here</p>", "ch01.html")), 1)
        self.assertEqual(browser.check_text("<pre>\\ref ch02</pre><code>\\note</code>", "ch01.html"), [])
        fragment = '<div class="fragment"><div class="line">\\snippet x</div></div><!-- fragment -->'
        self.assertEqual(browser.check_text(fragment, "ch01.html"), [])


class SnippetEvidenceTest(unittest.TestCase):
    """The code a chapter must show comes from its snippets."""

    def snippet_with_a_region(self):
        """(file name as a \\snippet names it, marker) of a snippet that holds a region."""
        for region in REGIONS.values():
            name = f"{region.stage.folder}/{region.file}"
            [path] = resolve_example(name)
            for line in path.read_text().splitlines():
                match = MARKER_LINE.match(line)
                if match and match.group(1) not in REGIONS:
                    marker = match.group(1)
                    if assignment_tool.STUDENT_TASK in "\n".join(snippet_lines(name, marker, edition("course"))):
                        return name, marker
        self.skipTest("no snippet holds an assignment region")

    def test_longest_line_of_each_snippet(self):
        name, marker = self.snippet_with_a_region()
        page = chapter(f"\\snippet {name} {marker}\n\nAnd `\\snippet {name} not_this_one` in a span.")
        lines = [line.strip() for line in snippet_lines(name, marker, edition("reader")) if line.strip()]
        self.assertEqual(browser.snippet_evidence(page, edition("reader")), [max(lines, key=len)])

    def test_the_task_in_the_course_edition(self):
        name, marker = self.snippet_with_a_region()
        wanted = browser.snippet_evidence(chapter(f"\\snippet {name} {marker}"), edition("course"))
        self.assertTrue(any(assignment_tool.STUDENT_TASK in line for line in wanted), wanted)
        reader = browser.snippet_evidence(chapter(f"\\snippet {name} {marker}"), edition("reader"))
        self.assertFalse(any(assignment_tool.STUDENT_TASK in line for line in reader), reader)
        self.assertNotEqual(wanted, reader)


if __name__ == "__main__":
    unittest.main()
