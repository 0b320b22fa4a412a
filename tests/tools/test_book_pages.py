"""Tests for tools/book's pages: what Doxygen reads as documentation, the
reading order and its navigation, the placeholders replaced, the answer keys
kept out of both editions, and the editions' folders.

Run from the repo root:  make test-tools
"""
import collections
import tempfile
import unittest
from pathlib import Path

try:
    from looplab_tools.book import pages as pages_module
    from looplab_tools.book.browser import answer_key_pages
    from looplab_tools.book.config import ANSWER_KEY_TITLE, ANSWER_KEYS, BOOK, EDITIONS, ROOT, Edition, edition
    from looplab_tools.book.pages import Page, doc_lines, page_text, reading_order
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")


def page(name, label, title="A page", text=""):
    return Page(BOOK / name, label, title, f"# {title} {{#{label}}}\n{text}\n")


def small_book():
    return {p.label: p for p in [
        page("index.md", "mainpage", "looplab"),
        page("appendix.md", "appendix", "An appendix"),
        page("02_timers.md", "ch02", "Chapter 2: Timers"),
        page("01_callback_queue.md", "ch01", 'Chapter 1: The "callback" queue'),
        page("assignments/01.md", "assignment01", "Assignment 1"),
    ]}


class DocLinesTest(unittest.TestCase):
    def test_code_is_blanked(self):
        text = ("prose \\ref ch01\n"
                "```\n\\snippet in a fence\n```\n"
                "a `\\snippet in a span` here\n"
                "\\code\nin a block\n\\endcode\n"
                "\\dot digraph { a -> b } \\enddot after\n"
                "last")
        lines = dict(doc_lines(text))
        self.assertEqual(lines[1], "prose \\ref ch01")
        self.assertNotIn(3, lines)
        self.assertEqual(lines[5].split(), ["a", "here"])
        self.assertNotIn(7, lines)
        self.assertEqual(lines[9], "")
        self.assertEqual(lines[10], "last")


class ReadingOrderTest(unittest.TestCase):
    def test_order(self):
        book = small_book()
        self.assertEqual(reading_order(book), ["mainpage", "ch01", "assignment01", "ch02"])
        self.assertEqual([p.label for p in pages_module.all_pages_in_order(book)],
                         ["mainpage", "ch01", "assignment01", "ch02", "appendix"])

    def test_navigation(self):
        book = small_book()
        order = reading_order(book)
        bar = pages_module.navigation(order, book, "assignment01", "top")
        self.assertEqual(bar, '<div class="booknav booknav-top">'
                              '<span class="booknav-prev">\\ref ch01 "← Chapter 1: The \'callback\' queue"</span>'
                              '<span class="booknav-up">\\ref index "Contents"</span>'
                              '<span class="booknav-next">\\ref ch02 "Chapter 2: Timers →"</span></div>')
        front = pages_module.navigation(order, book, "mainpage", "bottom")
        self.assertNotIn("booknav-up", front)
        self.assertIn('<span class="booknav-prev"></span>', front)
        last = pages_module.navigation(order, book, "ch02", "bottom")
        self.assertIn('<span class="booknav-next"></span>', last)
        self.assertIn('\\ref assignment01 "← Assignment 1"', last)
        outside = pages_module.navigation(order, book, "appendix", "top")
        self.assertEqual(outside, '<div class="booknav booknav-top"><span class="booknav-up">'
                                  '\\ref index "Contents"</span></div>')


class PageTextTest(unittest.TestCase):
    def test_placeholders_replaced_and_bars_added(self):
        book = small_book()
        book["ch01"] = page("01_callback_queue.md", "ch01", "Chapter 1: Callbacks",
                            "\nBefore.\n\n@STAGE_DIFF(01)@\n\n@TESTS(01)@\n")
        fragments = {"STAGE_DIFF": {1: "the diff"}, "TESTS": {1: "the tests"}, "BENCHMARKS": {}}
        lines = page_text(book["ch01"], book, reading_order(book), fragments).splitlines()
        self.assertEqual(lines[0], "# Chapter 1: Callbacks {#ch01}")
        self.assertTrue(lines[2].startswith('<div class="booknav booknav-top">'))
        self.assertIn("the diff", lines)
        self.assertIn("the tests", lines)
        self.assertTrue(lines[-1].startswith('<div class="booknav booknav-bottom">'))

    def test_front_page_has_only_a_bottom_bar(self):
        book = small_book()
        text = page_text(book["mainpage"], book, reading_order(book), {})
        self.assertNotIn("booknav-top", text)
        self.assertIn("booknav-bottom", text)

    def test_write_pages(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Edition("reader", Path(tmp))
            fragments = collections.defaultdict(lambda: collections.defaultdict(lambda: "FRAGMENT"))
            written = pages_module.write_pages(fragments, out)
            files = sorted(p.relative_to(out.pages) for p in out.pages.rglob("*.md"))
            self.assertEqual(files, sorted(p.path.relative_to(BOOK) for p in written.values()))
            for path in out.pages.rglob("*.md"):
                text = path.read_text()
                self.assertIsNone(pages_module.PLACEHOLDER.search(text), path)
                self.assertIn("booknav-bottom", text)


class AnswerKeyTest(unittest.TestCase):
    def test_answer_keys_are_no_page(self):
        keys = sorted(ANSWER_KEYS.glob("*.md"))
        self.assertTrue(keys, f"{ANSWER_KEYS} holds the answer keys")
        found = pages_module.read_pages()
        for key in keys:
            self.assertNotIn(key, [p.path for p in found.values()])
        self.assertFalse(any(ANSWER_KEYS in p.path.parents for p in found.values()))

    def test_a_page_showing_an_answer_key_is_a_problem(self):
        first_key = sorted(ANSWER_KEYS.glob("*.md"))[0]
        self.assertIn(ANSWER_KEY_TITLE, first_key.read_text().splitlines()[0], "how an answer key is recognised")
        with tempfile.TemporaryDirectory() as tmp:
            html = Path(tmp)
            (html / "index.html").write_text("<html>the book</html>")
            (html / "leak.html").write_text(f"<html><h1>{ANSWER_KEY_TITLE} 1</h1></html>")
            problems = answer_key_pages(html)
        self.assertEqual(len(problems), 1)
        self.assertIn("leak.html: shows an exercise answer key", problems[0])


class EditionTest(unittest.TestCase):
    def test_each_edition_has_its_folder(self):
        reader, course = edition("reader"), edition("course")
        self.assertEqual(reader.out, ROOT / "build" / "book")
        self.assertEqual(course.out, ROOT / "build" / "book-course")
        self.assertEqual(sorted(EDITIONS), ["course", "reader"])
        for each in (reader, course):
            self.assertEqual((each.generated, each.pages, each.html, each.screenshots),
                             (each.out / "generated", each.out / "src", each.out / "html", each.out / "screenshots"))


if __name__ == "__main__":
    unittest.main()
