"""Tests for `tools/book lint`: the snippet markers and the \\snippet commands
that use them, the placeholders, the pages' Doxygen pitfalls and the
assignment pages. The pages are made up; the sources they name are the
repository's (read, never written).

Run from the repo root:  make test-tools
"""
import unittest

try:
    from looplab_tools import assignment as assignment_tool
    from looplab_tools.book import lint
    from looplab_tools.book.config import BOOK, ROOT
    from looplab_tools.book.pages import Page
    from looplab_tools.book.sources import REGIONS, stages
except ModuleNotFoundError as missing:
    if missing.name != "looplab_tools.book":
        raise
    raise unittest.SkipTest("no book tool in this tree (an assignment's starter)") from None
if not (BOOK / "index.md").is_file():
    raise unittest.SkipTest("no book in this tree (a stage exported alone)")

EVENT_LOOP = "01_callback_queue/src/event_loop.cpp"   # a stage source, as a \snippet names it
EVENT_LOOP_PATH = ROOT / "stages" / EVENT_LOOP


def page(name, text, label=None, title="A page"):
    """A page of book/ with `text` after its title line."""
    label = label or name.removesuffix(".md").replace("/", "_")
    return Page(BOOK / name, label, title, f"# {title} {{#{label}}}\n\n{text}\n")


def chapter_one(text=""):
    return page("01_callback_queue.md", text, label="ch01", title="Chapter 1: The callback queue")


def real_markers():
    """The markers of stage 01's event_loop.cpp, as lint_sources finds them."""
    errors = []
    found = lint.markers_in(EVENT_LOOP_PATH, EVENT_LOOP_PATH.read_text(), errors)
    assert found and not errors, errors
    return {(EVENT_LOOP_PATH, name): marker for name, marker in found.items()}


class MarkerTest(unittest.TestCase):
    def test_a_marker_is_two_lines(self):
        errors = []
        found = lint.markers_in(ROOT / "stages" / "x.cpp", "a\n// [shown]\nb\n  # [shown]\nc\n", errors)
        self.assertEqual(errors, [])
        self.assertEqual(found["shown"].lines, [2, 4])

    def test_a_marker_seen_three_times(self):
        errors = []
        lint.markers_in(ROOT / "stages" / "x.cpp", "// [m]\nx\n// [m]\ny; // see [m]\n", errors)
        self.assertEqual(len(errors), 1)
        self.assertIn("marker [m] must appear exactly twice in its file (Doxygen's rule), found it on lines 1, 3, 4",
                      errors[0])

    def test_region_markers_are_not_snippet_markers(self):
        if not REGIONS:
            self.skipTest("no assignment region declared")
        region = next(iter(REGIONS))
        errors = []
        found = lint.markers_in(ROOT / "stages" / "x.cpp", f"// [{region}]\nx\n// [{region}]\n", errors)
        self.assertEqual((found, errors), ({}, []))


class SnippetTest(unittest.TestCase):
    def setUp(self):
        self.markers = real_markers()
        self.name = sorted(name for _, name in self.markers)[0]

    def lint_snippet(self, line):
        errors = []
        used = lint.lint_snippets({"ch01": chapter_one(line)}, self.markers, errors)
        return used, errors

    def test_a_known_marker(self):
        used, errors = self.lint_snippet(f"\\snippet {EVENT_LOOP} {self.name}")
        self.assertEqual(errors, [])
        self.assertEqual(used, {(EVENT_LOOP_PATH, self.name)})

    def test_an_unknown_marker(self):
        used, errors = self.lint_snippet(f"\\snippet {EVENT_LOOP} no_such_marker")
        self.assertEqual(used, set())
        self.assertEqual(len(errors), 1)
        self.assertIn(f"book/01_callback_queue.md:3: \\snippet {EVENT_LOOP} no_such_marker: "
                      "stages/01_callback_queue/src/event_loop.cpp has no marker lines `// [no_such_marker]`",
                      errors[0])

    def test_no_such_file(self):
        _, errors = self.lint_snippet(f"\\snippet 01_callback_queue/src/no_such_file.cpp {self.name}")
        self.assertIn("no such file under stages/", errors[0])

    def test_a_bare_file_name(self):
        _, errors = self.lint_snippet(f"\\snippet event_loop.cpp {self.name}")
        self.assertEqual(len(errors), 1)
        self.assertIn("no such file", errors[0])

    def test_an_assignment_region(self):
        if not REGIONS:
            self.skipTest("no assignment region declared")
        region = next(iter(REGIONS.values()))
        _, errors = self.lint_snippet(f"\\snippet {region.stage.folder}/{region.file} {region.name}")
        self.assertTrue(any("is an assignment region" in e for e in errors), errors)

    def test_a_snippet_in_code_is_not_a_snippet(self):
        used, errors = self.lint_snippet(f"`\\snippet {EVENT_LOOP} no_such_marker`\n\n"
                                         f"```\n\\snippet {EVENT_LOOP} no_such_marker\n```")
        self.assertEqual((used, errors), (set(), []))


class UnusedMarkerTest(unittest.TestCase):
    def unused(self, path, pages):
        marker = lint.Marker(path, "not_in_the_book", [10, 20])
        errors, warnings = [], []
        lint.lint_unused_markers(pages, {(path, marker.name): marker}, set(), errors, warnings)
        return errors, warnings

    def test_unused_in_a_stage(self):
        errors, warnings = self.unused(EVENT_LOOP_PATH, {"ch01": chapter_one()})
        self.assertEqual(warnings, [])
        self.assertEqual(errors, ["stages/01_callback_queue/src/event_loop.cpp:10: marker [not_in_the_book] is "
                                  "not used by any \\snippet in book/ (use it, or remove its two lines)"])

    def test_unused_while_the_chapter_is_not_written(self):
        errors, warnings = self.unused(EVENT_LOOP_PATH, {})
        self.assertEqual(errors, [])
        self.assertEqual(len(warnings), 1)
        self.assertIn("chapter 1 is not written yet, so its markers wait for it: [not_in_the_book]", warnings[0])

    def test_unused_where_markers_may_wait(self):
        # tests/ and common/ may hold markers no page uses yet.
        path = next((ROOT / "tests" / "support").glob("*.hpp"))
        self.assertEqual(self.unused(path, {"ch01": chapter_one()}), ([], []))

    def test_assignment_material_is_not_the_books(self):
        # A stage's assignment/ folder (regions, hidden tests, extension lab): no edition shows it.
        path = ROOT / "stages" / "01_callback_queue" / "assignment" / "lab" / "src" / "x.cpp"
        self.assertEqual(self.unused(path, {"ch01": chapter_one()}), ([], []))
        self.assertFalse(lint.must_be_used(path))
        self.assertTrue(lint.must_be_used(EVENT_LOOP_PATH))

    def test_used(self):
        marker = lint.Marker(EVENT_LOOP_PATH, "shown", [1, 2])
        errors, warnings = [], []
        lint.lint_unused_markers({"ch01": chapter_one()}, {(EVENT_LOOP_PATH, "shown"): marker},
                                 {(EVENT_LOOP_PATH, "shown")}, errors, warnings)
        self.assertEqual((errors, warnings), ([], []))

    def test_inherited_from_the_parent_stage(self):
        # A marker stage 02 keeps from stage 01 is chapter 1's to show.
        child = stages()[2]
        markers = real_markers()
        name = sorted(name for _, name in markers)[0]
        path = ROOT / child.path / "src" / "event_loop.cpp"
        if f"// [{name}]" not in path.read_text():
            self.skipTest(f"stage 02's event_loop.cpp dropped [{name}]")
        self.assertEqual(lint.marker_owner(path, name, stages()), (2, True))


class PageLintTest(unittest.TestCase):
    def lint_lines(self, text):
        errors = []
        lint.lint_refs_and_placeholders(chapter_one(text), stages(), errors)
        return errors

    def test_known_placeholders(self):
        self.assertEqual(self.lint_lines("@STAGE_DIFF(01)@\n\n@BENCHMARKS(01)@\n\n@TESTS(01)@"), [])

    def test_unknown_placeholder(self):
        errors = self.lint_lines("@SOMETHING(01)@")
        self.assertEqual(len(errors), 1)
        self.assertIn("unknown placeholder @SOMETHING(01)@ (known: @STAGE_DIFF(NN)@, @BENCHMARKS(NN)@, "
                      "@TESTS(NN)@)", errors[0])

    def test_placeholder_of_no_stage(self):
        self.assertIn("@TESTS(99)@: there is no stage 99", self.lint_lines("@TESTS(99)@")[0])

    def test_placeholder_without_a_number(self):
        errors = self.lint_lines("@BENCHMARKS(NN)@")
        self.assertIn("placeholders take a two-digit stage number", errors[0])

    def test_placeholder_in_code_is_text(self):
        self.assertEqual(self.lint_lines("`@SOMETHING(01)@`\n\n```\n@TESTS(1)@\n```"), [])

    def test_ref_text_on_two_lines(self):
        errors = self.lint_lines('See \\ref ch02 "the next\nchapter".')
        self.assertTrue(any("must end on the same line" in e for e in errors), errors)
        errors = self.lint_lines('See \\ref ch02\n"the next chapter".')
        self.assertTrue(any("must start on the line of the \\ref" in e for e in errors), errors)

    def test_code_spans_doxygen_misreads(self):
        errors = []
        lint.lint_code_spans(chapter_one("Write `\\code` here, and `it's` there.\n\n```\n`\\dot`\n```"), errors)
        self.assertEqual(len(errors), 2, errors)
        self.assertIn("`\\code` in a code span", errors[0])
        self.assertIn("a ' inside a code span", errors[1])

    def test_every_page_is_in_the_contents(self):
        pages = {"mainpage": page("index.md", "\\ref ch01", label="mainpage", title="looplab"),
                 "ch01": chapter_one("@STAGE_DIFF(01)@"), "extra": page("extra.md", "text")}
        errors, warnings = [], []
        lint.lint_pages(pages, errors, warnings)
        self.assertIn("book/extra.md:1: page extra is not in the contents of book/index.md: "
                      "list it there with \\ref extra", errors)
        self.assertFalse(any(e.startswith("book/01_callback_queue.md:1: page") for e in errors), errors)

    def test_a_chapter_follows_the_template(self):
        errors, warnings = [], []
        lint.lint_chapters({"ch01": chapter_one("Nothing yet.")}, stages(), errors, warnings)
        for what in ("its diff: @STAGE_DIFF(NN)@", "its benchmarks: @BENCHMARKS(NN)@", "its tests: @TESTS(NN)@",
                     "a diagram", "\\snippet 01_callback_queue/"):
            self.assertTrue(any(what in e for e in errors), (what, errors))

    def test_an_assignment_page_is_plain_markdown(self):
        errors = []
        assignment = page("assignments/01.md", "See \\ref ch01 and @TESTS(01)@.", label="assignment01")
        lint.lint_assignments({"assignment01": assignment}, stages(), errors)
        self.assertTrue(any("\\ref: an assignment page is also the starter's README.md" in e for e in errors), errors)
        self.assertTrue(any("no placeholders in an assignment page" in e for e in errors), errors)
        self.assertTrue(any("the grading table needs a row" in e for e in errors), errors)


class AssignmentPageTest(unittest.TestCase):
    def grading_table(self, nn, groups):
        rows = [f"| {group} | the tests; {assignment_tool.GROUP_SELECTION[group].format(nn=f'{nn:02d}')} | "
                f"{assignment_tool.WEIGHTS[group]} |" for group in groups]
        return page(f"assignments/{nn:02d}.md", "| group | what runs | weight |\n|---|---|---|\n" + "\n".join(rows),
                    label=f"assignment{nn:02d}")

    def lint_page(self, nn, groups):
        errors = []
        lint.lint_assignments({"page": self.grading_table(nn, groups)}, stages(), errors)
        return errors

    def stage_with_lab(self, wanted):
        for number, stage in stages().items():
            if (assignment_tool.lab_of(stage)[0] is not None) == wanted:
                return number
        self.skipTest("every stage has a lab" if not wanted else "no stage has a lab")

    def test_a_full_grading_table(self):
        nn = self.stage_with_lab(False)
        self.assertEqual(self.lint_page(nn, [g for g in assignment_tool.WEIGHTS if g != lint.LAB_GROUP]), [])

    def test_a_missing_row(self):
        nn = self.stage_with_lab(False)
        errors = self.lint_page(nn, ["new feature", "earlier stages", "parity with CPython"])
        self.assertEqual(len(errors), 1)
        self.assertIn("the grading table needs a row `| hidden | ... | 25 ...`", errors[0])

    def test_a_wrong_selection(self):
        nn = self.stage_with_lab(False)
        page_ = self.grading_table(nn, [g for g in assignment_tool.WEIGHTS if g != lint.LAB_GROUP])
        page_.text = page_.text.replace(f"`since{nn:02d}`", "`since99`")
        errors = []
        lint.lint_assignments({"page": page_}, stages(), errors)
        self.assertTrue(any("the row of group 'new feature' must say which tests" in e for e in errors), errors)

    def test_a_lab_needs_its_row(self):
        nn = self.stage_with_lab(True)
        errors = self.lint_page(nn, [g for g in assignment_tool.WEIGHTS if g != lint.LAB_GROUP])
        self.assertEqual(len(errors), 1, errors)
        self.assertIn(f"the grading table needs a row `| {lint.LAB_GROUP} |", errors[0])
        self.assertEqual(self.lint_page(nn, list(assignment_tool.WEIGHTS)), [])


class BoldCodeTest(unittest.TestCase):
    def test_bold_opening_with_code_is_noted(self):
        warnings = []
        lint.lint_bold_code(page("x.md", "- **`get()`** raises\n- **A `get()`** is fine\n"
                                         "```\n**`in code`**\n```\n"), warnings)
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("book/x.md:3: a bold span opens with a code span", warnings[0])


if __name__ == "__main__":
    unittest.main()
