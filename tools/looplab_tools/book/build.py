"""tools/book build: lint, the demos, the generated fragments, the pages, Doxygen."""
import shutil

from looplab_tools.book.benchmarks import generate_benchmarks
from looplab_tools.book.config import BookError, rel
from looplab_tools.book.demos import build_demos
from looplab_tools.book.diffs import generate_diffs
from looplab_tools.book.doxygen import run_doxygen, write_doxyfile
from looplab_tools.book.lint import lint
from looplab_tools.book.pages import read_pages, write_pages
from looplab_tools.book.scenarios import generate_scenarios
from looplab_tools.book.tests_fragment import generate_tests


def build(edition, report_dir, demos=True):
    """The edition's pages and HTML (edition.html/index.html), with the figures
    of the report in `report_dir`; demos=False reuses the demos' saved output."""
    if not lint(edition):
        raise BookError("fix the problems above first")
    if demos:
        shutil.rmtree(edition.generated, ignore_errors=True)  # nothing from an earlier build may linger
    edition.generated.mkdir(parents=True, exist_ok=True)
    if demos:
        build_demos(edition)
    fragments = {"STAGE_DIFF": generate_diffs(edition), "BENCHMARKS": generate_benchmarks(report_dir, edition),
                 "TESTS": generate_tests(edition), "SCENARIO": generate_scenarios(read_pages(), edition)}
    pages = write_pages(fragments, edition)
    run_doxygen(write_doxyfile(pages, edition), edition)
    index = edition.html / "index.html"
    if not index.is_file():
        raise BookError(f"Doxygen wrote no {rel(index)}")
    edition.say(f"built {rel(index)}")
