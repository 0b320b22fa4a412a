"""The book's pages: reading them, their reading order, and writing them to
build/book/src with the placeholders replaced and the navigation added."""
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from looplab_tools.book.config import ANSWER_KEYS, BOOK, BookError, rel
from looplab_tools.book.scenarios import replace_scenarios

SNIPPET = re.compile(r"(?<!\\)[\\@](snippet(?:lineno|doc)?)(\{[^}]*\})?[ \t]+(\S+)[ \t]+\(?([A-Za-z0-9_.:-]+)\)?")
PLACEHOLDER = re.compile(r"@([A-Z][A-Z_]*)\((\d+)\)@")
PLACEHOLDER_NAMES = ("STAGE_DIFF", "BENCHMARKS", "TESTS")
TITLE = re.compile(r"^#[ \t]+(.*?)[ \t]*\{#([A-Za-z0-9_]+)\}[ \t]*$")
# Doxygen blocks whose text is not documentation.
DOXYGEN_BLOCKS = {"code": "endcode", "verbatim": "endverbatim", "dot": "enddot", "msc": "endmsc",
                  "htmlonly": "endhtmlonly", "latexonly": "endlatexonly", "startuml": "enduml"}


def doc_lines(text):
    """(line number, text) of the lines Doxygen reads as documentation: fenced
    code, Doxygen's verbatim blocks and `code spans` are blanked out."""
    fence, block = None, None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if block:
            if re.search(rf"(?<!\\)[\\@]{block}\b", line):
                block = None
            continue
        fence_match = re.match(r"^(```+|~~~+)", stripped)
        if fence_match:
            fence = fence_match.group(1)
            continue
        line = re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)
        opening = re.search(r"(?<!\\)[\\@](" + "|".join(DOXYGEN_BLOCKS) + r")\b", line)
        if opening:
            end = DOXYGEN_BLOCKS[opening.group(1)]
            if not re.search(rf"(?<!\\)[\\@]{end}\b", line[opening.end():]):
                block = end
            line = line[:opening.start()]
        yield number, line


@dataclass
class Page:
    """A page of book/: its file, its label and title (from its first line), its text."""
    path: Path          # under book/
    label: str
    title: str
    text: str

    @property
    def name(self):
        return rel(self.path)


def read_pages():
    """Every Markdown page under book/, by label."""
    pages = {}
    for path in sorted(BOOK.rglob("*.md")):
        if ANSWER_KEYS in path.parents:
            continue
        text = path.read_text()
        first = text.splitlines()[0] if text.strip() else ""
        match = TITLE.match(first)
        if not match:
            raise BookError(f"{rel(path)}:1: a page starts with its title and label: "
                            "`# Title {#label}`")
        label, title = match.group(2), match.group(1)
        if label in pages:
            raise BookError(f"{rel(path)}:1: label {label} is also used by {pages[label].name}")
        pages[label] = Page(path, label, title, text)
    if "mainpage" not in pages:
        raise BookError("book/index.md must be the front page: `# Title {#mainpage}`")
    return pages


def reading_order(pages):
    """The labels of the pages in reading order: the front page, then each
    chapter chNN in order of NN, each followed by its assignment assignmentNN."""
    order = ["mainpage"]
    for nn in sorted(int(label[2:]) for label in pages if re.fullmatch(r"ch\d\d", label)):
        order.append(f"ch{nn:02d}")
        if f"assignment{nn:02d}" in pages:
            order.append(f"assignment{nn:02d}")
    return order


def all_pages_in_order(pages):
    """Every page: the reading order, then the others (appendices) by file name.
    Doxygen 1.9.4 shows top-level pages in its tree in the order it reads them."""
    order = reading_order(pages)
    rest = sorted((p for p in pages.values() if p.label not in order), key=lambda p: str(p.path))
    return [pages[label] for label in order] + rest


def navigation(order, pages, label, where):
    """The previous / contents / next bar of a page in the reading order."""
    if label not in order:
        return f'<div class="booknav booknav-{where}"><span class="booknav-up">\\ref index "Contents"</span></div>'
    i = order.index(label)
    prev_label = order[i - 1] if i > 0 else None
    next_label = order[i + 1] if i + 1 < len(order) else None

    def link(target, arrow_before, arrow_after):
        if target is None:
            return ""
        anchor = "index" if target == "mainpage" else target
        title = "Front page" if target == "mainpage" else pages[target].title.replace('"', "'")
        return f'\\ref {anchor} "{arrow_before}{title}{arrow_after}"'

    parts = [f'<span class="booknav-prev">{link(prev_label, "← ", "")}</span>']
    if label != "mainpage":
        parts.append('<span class="booknav-up">\\ref index "Contents"</span>')
    parts.append(f'<span class="booknav-next">{link(next_label, "", " →")}</span>')
    return f'<div class="booknav booknav-{where}">' + "".join(parts) + "</div>"


def page_text(page, pages, order, fragments):
    """A page as the book shows it: each placeholder replaced by its fragment
    (fragments: {name: {number: Markdown}}, and "SCENARIO": {group/name:
    Markdown}), the navigation bars added."""
    text = page.text

    def replace(match):
        name, number = match.group(1), int(match.group(2))
        return fragments[name][number]

    text = PLACEHOLDER.sub(replace, text)
    if "@SCENARIO(" in text:  # looked up only when needed: fragments may be a defaultdict
        text = replace_scenarios(text, fragments["SCENARIO"])
    lines = text.splitlines()
    top = navigation(order, pages, page.label, "top")
    bottom = navigation(order, pages, page.label, "bottom")
    body = lines[1:]
    if page.label == "mainpage":
        return "\n".join([lines[0], *body, "", bottom, ""])
    return "\n".join([lines[0], "", top, "", *body, "", bottom, ""])


def write_pages(fragments, edition):
    """book/ -> build/book/src: placeholders replaced, navigation added."""
    pages = read_pages()
    order = reading_order(pages)
    shutil.rmtree(edition.pages, ignore_errors=True)
    for page in pages.values():
        target = edition.pages / page.path.relative_to(BOOK)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page_text(page, pages, order, fragments))
    return pages
