"""The sources the book shows, as each edition shows them: the stages and the
feature groups (tools/stage), the assignment regions (tools/assignment), and
the snippet markers in the example files."""
import re

from looplab_tools import assignment as assignment_tool
from looplab_tools import stage as stage_tool
from looplab_tools.book.config import ROOT, rel

# Where \snippet, \include and \verbinclude look (Doxygen's EXAMPLE_PATH, recursive):
# the sources, and book/examples/, the book's own Python programs (\include tiny_loop.py).
EXAMPLE_DIRS = ["stages", "common", "tests", "comparisons", "bench", "examples", "book/examples"]
MARKER_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".py"}
CPP_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}

MARKER_LINE = re.compile(r"^\s*(?://|#)\s*\[([A-Za-z0-9_.:-]+)\]\s*$")

REGIONS = stage_tool.load_regions(ROOT)


def stages():
    """{number: Stage} in number order."""
    found, _ = stage_tool.load_stages(ROOT)
    return {s.number: s for s in found.values()}


def features():
    """[(group, since)] of the feature table (features.toml), in table order."""
    return stage_tool.features(ROOT)


def groups_since(number):
    return [group for group, since in features() if since == number]


def book_view(text, edition, name="<text>"):
    """A source as `edition` of the book shows it: no region marker; in the
    course edition, each region a student writes shown as the student's task."""
    return assignment_tool.book_text(text, REGIONS, edition.name, name=name)


def example_files():
    """Every file where \\snippet, \\include and \\verbinclude look."""
    for top in EXAMPLE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def resolve_example(name):
    """The example files Doxygen would take for `name` (stage-qualified path)."""
    exact = [ROOT / top / name for top in EXAMPLE_DIRS if (ROOT / top / name).is_file()]
    return exact


def snippet_lines(file_name, block, edition):
    """The lines of a \\snippet as `edition`'s filter hands them to Doxygen."""
    targets = resolve_example(file_name)
    if len(targets) != 1:
        return []
    text = targets[0].read_text(errors="replace")
    if targets[0].suffix in CPP_SUFFIXES:
        text = book_view(text, edition, rel(targets[0]))
    lines, inside = [], False
    for line in text.splitlines():
        match = MARKER_LINE.match(line)
        if match and match.group(1) == block:
            if inside:
                break
            inside = True
        elif inside and not match:
            lines.append(line)
    return lines


def source_listing(text, edition, name="<text>"):
    """A source as the API reference's file listings show it: the reference code,
    with each snippet marker line left blank, so that the line numbers Doxygen
    took from the file still point at the right lines."""
    return "".join("\n" if MARKER_LINE.match(line) else line
                   for line in book_view(text, edition, name).splitlines(keepends=True))
