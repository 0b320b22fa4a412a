#!/usr/bin/env python3
"""tools/book: build the looplab book with Doxygen, and check it.

The book's sources are the Markdown pages in book/. Code is never pasted into
them: a chapter pulls it from the stage sources with `\\snippet`, between two
marker comment lines of the same name,

    // [run_once]
    void EventLoop::run_once() { ... }
    // [run_once]

and shows what cannot be pulled (a chapter's diff, the demo's output, the
benchmark figures) from files this tool generates first.

Commands:
  lint            check the markers and the references to them: every marker
                  line appears exactly twice in its file; every marker in
                  stages/ and bench/ (but an assignment region's) is used by a
                  \\snippet in book/; every \\snippet names an existing file and
                  marker; every placeholder is known; chapters follow the
                  template; assignment pages hold no Doxygen command
  build           lint; build the demos (build/book-demos) and save their
                  output; generate each chapter's diff, its benchmark table and
                  charts (from build/report, when `make report` has run); copy
                  the pages to build/book/src with the placeholders replaced
                  and the navigation added; write the Doxyfile from
                  book/Doxyfile.in and run Doxygen, which must not warn.
                  Result: build/book/html/index.html. With --edition course,
                  the course edition: each assignment region shows as the
                  student's task (build/book-course/html/index.html)
  filter-source F print F as the API reference lists it (Doxygen's source
                  filter): tools/assignment's filter, snippet marker lines blank
  check-browser   load the built pages in headless Chromium: each chapter shows
                  a code fragment per \\snippet, a diagram per \\dot/\\msc block
                  (its image written), its demo's output and the longest line
                  of each of its snippets; every page in the reading order has
                  its previous/next links; no marker is visible; the course
                  edition shows no line that gives a region's solution away,
                  the reader's no student's task; screenshots go to
                  build/book/screenshots/ (build/book-course/screenshots/)

Placeholders, replaced in build/book/src (NN is a stage number, two digits):
  @STAGE_DIFF(NN)@    what chapter NN changes: a table of the files with their
                      added/removed line counts and the whole diff against the
                      parent stage (tools/stage diff, markers removed); for a
                      first stage, its files with their line counts
  @BENCHMARKS(NN)@    the workloads chapter NN adds, with stage NN's figures
                      next to CPython asyncio and uvloop, and the report's
                      charts; or, without a report, how to build one
  @TESTS(NN)@         the test groups chapter NN adds: its unit test files and
                      its scenario twins, and the ctest commands that run them
Previous/next links are not written by hand: every page in the reading order
(the front page, then each chapter chNN followed by its assignment assignmentNN)
gets them at its top and bottom. Doxygen reads the pages in that order, then the
other pages (appendices), which is the order of its tree view.
"""
import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from looplab_tools import assignment as assignment_tool
from looplab_tools import stage as stage_tool

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
# The answer keys of the exercises: for instructors, never a page of the book.
ANSWER_KEYS = BOOK / "assignments" / "answers"
ANSWER_KEY_TITLE = "Answer key: chapter"  # how each of them starts
# Two editions from the same sources: the reader's shows the solutions; the
# course edition shows each region a student writes as the student's task.
EDITIONS = {"reader": ROOT / "build" / "book", "course": ROOT / "build" / "book-course"}
EDITION = "reader"
OUT = EDITIONS[EDITION]
GENERATED = OUT / "generated"
PAGES = OUT / "src"
HTML_DIR = OUT / "html"
SCREENSHOTS = OUT / "screenshots"
DEMO_BUILD = ROOT / "build" / "book-demos"
REPORT = ROOT / "build" / "report"

DOXYGEN_VERSION = "1.9.4"  # Debian 12's; the Doxyfile and the pages are written for it
# Where \snippet, \include and \verbinclude look (Doxygen's EXAMPLE_PATH, recursive).
EXAMPLE_DIRS = ["stages", "common", "tests", "comparisons", "bench", "examples"]
# Folders whose markers must all be used by the book.
MARKERS_MUST_BE_USED = ["stages", "bench", "examples"]
MARKER_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".py"}
CPP_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}

MARKER_LINE = re.compile(r"^\s*(?://|#)\s*\[([A-Za-z0-9_.:-]+)\]\s*$")
SNIPPET = re.compile(r"(?<!\\)[\\@](snippet(?:lineno|doc)?)(\{[^}]*\})?[ \t]+(\S+)[ \t]+\(?([A-Za-z0-9_.:-]+)\)?")
INCLUDE = re.compile(r"(?<!\\)[\\@](include(?:lineno|doc)?|verbinclude|dontinclude)(\{[^}]*\})?[ \t]+(\S+)")
PLACEHOLDER = re.compile(r"@([A-Z][A-Z_]*)\((\d+)\)@")
PLACEHOLDER_NAMES = ("STAGE_DIFF", "BENCHMARKS", "TESTS")
PAGE_REF = re.compile(r"(?<!\\)[\\@](?:ref|subpage)[ \t]+([A-Za-z0-9_]+)")
# A \ref whose "link text" opens a quote that the line does not close.
REF_TEXT_OPEN = re.compile(r'(?<!\\)[\\@]ref[ \t]+[A-Za-z0-9_]+[ \t]+"[^"]*$')
TITLE = re.compile(r"^#[ \t]+(.*?)[ \t]*\{#([A-Za-z0-9_]+)\}[ \t]*$")
CHAPTER_FILE = re.compile(r"^(\d\d)_[a-z0-9_]+\.md$")
# Doxygen blocks whose text is not documentation.
DOXYGEN_BLOCKS = {"code": "endcode", "verbatim": "endverbatim", "dot": "enddot", "msc": "endmsc",
                  "htmlonly": "endhtmlonly", "latexonly": "endlatexonly", "startuml": "enduml"}
# Commands that make a page Doxygen-only (an assignment page is also a plain README).
DOXYGEN_COMMAND = re.compile(r"(?<![\w`\\])[\\@](?:snippet\w*|include\w*|verbinclude|ref|subpage|page|"
                             r"section|subsection|image|dot|msc|htmlonly|code|endcode|verbatim|"
                             r"anchor|cite|note|warning|see|tableofcontents)\b")


class BookError(Exception):
    """The build cannot go on; the message says why."""


def set_edition(edition):
    """Point every output path at the edition's own folder."""
    global EDITION, OUT, GENERATED, PAGES, HTML_DIR, SCREENSHOTS
    EDITION, OUT = edition, EDITIONS[edition]
    GENERATED, PAGES, HTML_DIR, SCREENSHOTS = OUT / "generated", OUT / "src", OUT / "html", OUT / "screenshots"


def say(text):
    print(f"book: {text}" if EDITION == "reader" else f"book ({EDITION} edition): {text}", flush=True)


def rel(path):
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return str(path)


# ------------------------------------------------------- the other tools ----

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


def book_view(text, name="<text>"):
    """A source as this edition of the book shows it: no region marker; in the
    course edition, each region a student writes shown as the student's task."""
    return assignment_tool.book_text(text, REGIONS, EDITION, name=name)


# ------------------------------------------------------ reading the pages ----

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


# ------------------------------------------------------------------ lint ----

@dataclass
class Marker:
    file: Path
    name: str
    lines: list = field(default_factory=list)  # line numbers of its marker lines


def example_files():
    for top in EXAMPLE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def lint_sources(errors):
    """Markers in the example files. Returns {(file, name): Marker}; the
    assignment regions' markers are checked by tools/stage, not listed."""
    markers = {}
    for path in example_files():
        if path.suffix not in MARKER_SUFFIXES:
            continue
        text = path.read_text(errors="replace")
        lines = text.splitlines()
        if path.suffix in CPP_SUFFIXES and path.is_relative_to(ROOT / "stages"):
            try:
                book_view(text, rel(path))
            except assignment_tool.AssignmentError as error:
                errors.append(f"{error}")
        found = {}
        for number, line in enumerate(lines, start=1):
            match = MARKER_LINE.match(line)
            if match and match.group(1) not in REGIONS:
                found.setdefault(match.group(1), Marker(path, match.group(1))).lines.append(number)
        for name, marker in found.items():
            # Doxygen counts every line that holds "[name]", marker line or not.
            holding = [n for n, line in enumerate(lines, start=1) if f"[{name}]" in line]
            where = f"{rel(path)}:{marker.lines[0]}"
            if len(holding) != 2:
                errors.append(f"{where}: marker [{name}] must appear exactly twice in its file "
                              f"(Doxygen's rule), found it on lines {', '.join(map(str, holding))}")
            markers[(path, name)] = marker
    return markers


def resolve_example(name):
    """The example files Doxygen would take for `name` (stage-qualified path)."""
    exact = [ROOT / top / name for top in EXAMPLE_DIRS if (ROOT / top / name).is_file()]
    return exact


def lint_snippets(pages, markers, errors, warnings):
    """Every \\snippet names one existing file and marker. Returns the markers used."""
    used = set()
    for page in pages.values():
        for number, line in doc_lines(page.text):
            for match in SNIPPET.finditer(line):
                file_name, block = match.group(3), match.group(4)
                where = f"{page.name}:{number}"
                targets = resolve_example(file_name)
                if not targets:
                    errors.append(f"{where}: \\snippet {file_name} {block}: no such file under "
                                  f"{', '.join(d + '/' for d in EXAMPLE_DIRS)} (paths are stage-qualified, "
                                  "e.g. 01_callback_queue/src/event_loop.cpp)")
                    continue
                if len(targets) > 1:
                    errors.append(f"{where}: \\snippet {file_name}: ambiguous, it names "
                                  f"{', '.join(rel(t) for t in targets)}; qualify the path")
                    continue
                target = targets[0]
                if file_name.count("/") == 0 or (target.is_relative_to(ROOT / "stages")
                                                 and not re.match(r"\d\d_", file_name)):
                    errors.append(f"{where}: \\snippet {file_name}: qualify the path with its folder "
                                  "(01_callback_queue/src/event_loop.cpp): a bare name becomes "
                                  "ambiguous as soon as a second stage has the same file")
                if block in REGIONS:
                    errors.append(f"{where}: \\snippet {file_name} {block}: [{block}] is an assignment "
                                  "region; show the snippet around it (its lines are dropped from the book)")
                    continue
                if (target, block) not in markers:
                    errors.append(f"{where}: \\snippet {file_name} {block}: {rel(target)} has no "
                                  f"marker lines `// [{block}]`")
                    continue
                used.add((target, block))
            for match in INCLUDE.finditer(line):
                command, file_name = match.group(1), match.group(3)
                if command == "verbinclude" and re.match(r"demo_s\d\d\.txt$", file_name):
                    continue  # generated by the build; checked there
                if not resolve_example(file_name):
                    errors.append(f"{page.name}:{number}: \\{command} {file_name}: no such file under "
                                  f"{', '.join(d + '/' for d in EXAMPLE_DIRS)}")
    known = stages()
    chapters = {int(m.group(1)) for page in pages.values()
                if page.path.parent == BOOK and (m := CHAPTER_FILE.match(page.path.name))}
    waiting = {}
    for (path, name), marker in sorted(markers.items(), key=lambda item: (str(item[0][0]), item[0][1])):
        if (path, name) in used or not any(path.is_relative_to(ROOT / top) for top in MARKERS_MUST_BE_USED):
            continue
        number, inherited = marker_owner(path, name, known)
        if inherited:
            continue  # the parent stage's chapter shows it
        if number is not None and number not in chapters:
            waiting.setdefault(number, []).append(f"[{name}] ({rel(path)}:{marker.lines[0]})")
            continue
        errors.append(f"{rel(path)}:{marker.lines[0]}: marker [{name}] is not used by any "
                      "\\snippet in book/ (use it, or remove its two lines)")
    for number, names in sorted(waiting.items()):
        warnings.append(f"chapter {number} is not written yet, so its markers wait for it: " + ", ".join(names))
    return used


def marker_owner(path, name, known):
    """(the stage whose chapter must use a marker, whether the parent stage has it too)."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "stages":
        match = re.match(r"(\d+)_", parts[1])
        stage = known.get(int(match.group(1))) if match else None
        if stage is None:
            return None, False
        parent = stage_tool.parent_of({s.folder: s for s in known.values()}, stage)
        if parent is not None:
            original = ROOT / parent.path / Path(*parts[2:])
            if original.is_file() and any(MARKER_LINE.match(line) and MARKER_LINE.match(line).group(1) == name
                                          for line in original.read_text().splitlines()):
                return stage.number, True
        return stage.number, False
    if parts[0] in ("bench", "examples") and len(parts) > 2:
        since = dict(features()).get(parts[1])
        return since, False
    return None, False


# Doxygen 1.9.4's Markdown pass opens these blocks even inside a `code span`, and
# then swallows everything up to the next closing command, fences included.
# A Markdown code span (`code`, ``code``).
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
BLOCK_IN_CODE_SPAN = re.compile(r"(`+)[^`]*?(?<!\\)[\\@](" + "|".join(DOXYGEN_BLOCKS) + "|"
                                + "|".join(DOXYGEN_BLOCKS.values()) + r")\b[^`]*?\1")


def lint_pages(pages, errors, warnings):
    known = stages()
    listed = {m.group(1) for _, line in doc_lines(pages["mainpage"].text) for m in PAGE_REF.finditer(line)}
    for page in pages.values():
        fence = None
        for number, line in enumerate(page.text.splitlines(), start=1):
            opening = re.match(r"^\s*(```+|~~~+)", line)
            if fence:
                fence = None if opening and opening.group(1).startswith(fence) else fence
                continue
            if opening:
                fence = opening.group(1)
                continue
            match = BLOCK_IN_CODE_SPAN.search(line)
            if match:
                command = match.group(2)
                errors.append(f"{page.name}:{number}: `\\{command}` in a code span: Doxygen 1.9.4 opens a "
                              f"block there anyway; write <code>\\\\{command}</code> instead")
            for span in CODE_SPAN.finditer(line):
                if "'" in span.group(2):
                    errors.append(f"{page.name}:{number}: {span.group(0)}: a ' inside a code span makes "
                                  "Doxygen 1.9.4 read `...' as a quotation, which garbles the rest of the "
                                  "paragraph; use double quotes, or no quotes")
        if page.label != "mainpage" and page.label not in listed:
            errors.append(f"{page.name}:1: page {page.label} is not in the contents of book/index.md: "
                          f"list it there with \\ref {page.label}")
        previous = ""
        for number, line in doc_lines(page.text):
            if re.search(r"(?<!\\)[\\@]ref[ \t]+[A-Za-z0-9_]+[ \t]*$", previous) and line.lstrip().startswith('"'):
                errors.append(f"{page.name}:{number}: the quoted text of a \\ref must start on the line "
                              "of the \\ref; here Doxygen would show it as plain text")
            previous = line
            for match in PLACEHOLDER.finditer(line):
                name, nn = match.group(1), int(match.group(2))
                if name not in PLACEHOLDER_NAMES:
                    errors.append(f"{page.name}:{number}: unknown placeholder {match.group(0)} "
                                  f"(known: {', '.join('@' + n + '(NN)@' for n in PLACEHOLDER_NAMES)})")
                elif nn not in known:
                    errors.append(f"{page.name}:{number}: {match.group(0)}: there is no stage {nn:02d}")
            if REF_TEXT_OPEN.search(line):
                errors.append(f"{page.name}:{number}: the quoted text of a \\ref must end on the same "
                              "line; Doxygen 1.9.4 otherwise swallows what follows into the link")
            leftover = re.search(r"@[A-Z][A-Z_]*\([^)]*\)@", PLACEHOLDER.sub("", line))
            if leftover:
                errors.append(f"{page.name}:{number}: {leftover.group(0)}: placeholders take a "
                              "two-digit stage number, e.g. @BENCHMARKS(01)@")
    lint_chapters(pages, known, errors, warnings)
    lint_assignments(pages, known, errors)


def lint_chapters(pages, known, errors, warnings):
    """What chapter_template.md requires of every chapter."""
    chapters = {}
    for page in pages.values():
        match = CHAPTER_FILE.match(page.path.name)
        if page.path.parent != BOOK or not match:
            continue
        nn = int(match.group(1))
        chapters[nn] = page
        if nn == 0:
            if page.label != "ch00":
                errors.append(f"{page.name}:1: chapter 0's label is ch00")
            continue
        stage = known.get(nn)
        if stage is None:
            errors.append(f"{page.name}:1: there is no stage {nn:02d} for this chapter")
            continue
        if page.path.name != f"{stage.folder}.md":
            errors.append(f"{page.name}: chapter {nn} is named after its stage folder: book/{stage.folder}.md")
        if page.label != f"ch{nn:02d}" or not page.title.startswith(f"Chapter {nn}: "):
            errors.append(f"{page.name}:1: the title line is `# Chapter {nn}: Title {{#ch{nn:02d}}}`")
        body = "\n".join(line for _, line in doc_lines(page.text))
        raw = page.text
        required = [
            (f"@STAGE_DIFF({nn:02d})@", "its diff: @STAGE_DIFF(NN)@"),
            (f"@BENCHMARKS({nn:02d})@", "its benchmarks: @BENCHMARKS(NN)@"),
            (f"@TESTS({nn:02d})@", "its tests: @TESTS(NN)@"),
        ]
        for needle, what in required:
            if needle not in body:
                errors.append(f"{page.name}: a chapter shows {what}")
        if list((ROOT / stage.path / "demo").glob("*.cpp")) and f"demo_s{nn:02d}.txt" not in body:
            errors.append(f"{page.name}: a chapter shows its demo's output: \\verbinclude demo_s{nn:02d}.txt")
        if not re.search(r"[\\@](dot|msc|dotfile|mscfile)\b", raw):
            errors.append(f"{page.name}: a chapter has a diagram (\\dot or \\msc)")
        if not re.search(rf"[\\@]snippet\w*(\{{[^}}]*\}})?[ \t]+{stage.folder}/", body):
            errors.append(f"{page.name}: a chapter shows its stage's code with \\snippet {stage.folder}/...")
        if (BOOK / "assignments" / f"{nn:02d}.md").is_file() and f"assignment{nn:02d}" not in body:
            errors.append(f"{page.name}: the chapter leads to its assignment: \\ref assignment{nn:02d}")
    for nn, stage in known.items():
        if nn not in chapters:
            warnings.append(f"stage {stage.folder} has no chapter yet: copy the skeleton in "
                            f"book/chapter_template.md to book/{stage.folder}.md and list it in book/index.md")


def lint_assignments(pages, known, errors):
    """Assignment pages are also the starter's README: plain Markdown only."""
    for page in pages.values():
        if page.path.parent != BOOK / "assignments":
            continue
        match = re.match(r"^(\d\d)\.md$", page.path.name)
        if not match:
            errors.append(f"{page.name}: assignment pages are named NN.md (tools/assignment reads them)")
            continue
        nn = int(match.group(1))
        if page.label != f"assignment{nn:02d}":
            errors.append(f"{page.name}:1: the label of assignment {nn:02d} is assignment{nn:02d}")
        if nn not in known:
            errors.append(f"{page.name}: there is no stage {nn:02d}")
        for number, line in doc_lines(page.text):
            command = DOXYGEN_COMMAND.search(line)
            if command:
                errors.append(f"{page.name}:{number}: {command.group(0)}: an assignment page is also "
                              "the starter's README.md, so it holds no Doxygen command")
            if PLACEHOLDER.search(line):
                errors.append(f"{page.name}:{number}: no placeholders in an assignment page (README.md)")
        for group, weight in assignment_tool.WEIGHTS.items():
            row = re.search(rf"^\|\s*{re.escape(group)}\s*\|.*\|\s*{weight}\b.*$", page.text, re.M)
            if not row:
                errors.append(f"{page.name}: the grading table needs a row `| {group} | ... | {weight} ...` "
                              "(the weight tools/assignment gives it)")
                continue
            selection = assignment_tool.GROUP_SELECTION[group].format(nn=f"{nn:02d}")
            if selection not in row.group(0):
                errors.append(f"{page.name}: the row of group '{group}' must say which tests the grader "
                              f"counts there, as tools/assignment does: {selection}")


def lint():
    """Print every problem; return True if there is none."""
    errors, warnings = [], []
    try:
        pages = read_pages()
    except BookError as error:
        print(f"book lint: {error}", file=sys.stderr)
        return False
    markers = lint_sources(errors)
    lint_snippets(pages, markers, errors, warnings)
    lint_pages(pages, errors, warnings)
    for warning in warnings:
        say(f"lint: note: {warning}")
    for error in errors:
        print(f"book lint: {error}", file=sys.stderr)
    if errors:
        print(f"book lint: {len(errors)} problem(s)", file=sys.stderr)
        return False
    say(f"lint: {len(markers)} markers, {len(pages)} pages, every snippet reference resolves")
    return True


# ----------------------------------------------------------------- demos ----

def run(command, **kwargs):
    say("$ " + " ".join(str(c) for c in command))
    result = subprocess.run([str(c) for c in command], cwd=ROOT, **kwargs)
    if result.returncode != 0:
        raise BookError(f"`{' '.join(str(c) for c in command)}` failed with exit status {result.returncode}")
    return result


def build_demos():
    """Build every stage's demo in build/book-demos and save what it prints."""
    run(["nice", "cmake", "-S", ".", "-B", rel(DEMO_BUILD), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DLOOPLAB_BUILD_TESTS=OFF", "-DLOOPLAB_BUILD_BENCH=OFF"], stdout=subprocess.DEVNULL)
    run(["nice", "cmake", "--build", rel(DEMO_BUILD)])
    for number in stages():
        demo = DEMO_BUILD / "bin" / f"demo_s{number:02d}"
        if not demo.is_file():
            continue
        try:
            result = subprocess.run(["nice", str(demo)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise BookError(f"{rel(demo)} did not finish in 120 s") from None
        if result.returncode != 0:
            raise BookError(f"{rel(demo)} exited with status {result.returncode}:\n{result.stderr}")
        out = GENERATED / f"demo_s{number:02d}.txt"
        out.write_text(result.stdout)
        say(f"{rel(demo)} -> {rel(out)} ({len(result.stdout.splitlines())} lines)")


# ----------------------------------------------------------------- diffs ----

def stage_sources(stage):
    """The files of a stage, relative to its folder (tools/stage's view)."""
    return sorted(stage_tool.stage_files(ROOT, stage))


def without_snippet_markers(text):
    """`text` without its `// [name]` lines: a chapter's markers are the book's
    business, not a change the chapter's diff should show."""
    return "".join(line for line in text.splitlines(keepends=True) if not MARKER_LINE.match(line))


def source_listing(text, name="<text>"):
    """A source as the API reference's file listings show it: the reference code,
    with each snippet marker line left blank, so that the line numbers Doxygen
    took from the file still point at the right lines."""
    return "".join("\n" if MARKER_LINE.match(line) else line
                   for line in book_view(text, name).splitlines(keepends=True))


def mirror_for_diffs():
    """A copy of stages/ as the book shows it (snippet markers, solution markers
    and stubs removed), for `tools/stage --root MIRROR diff NN`: a diff must not
    show a marker either."""
    mirror = OUT / "stage-mirror"
    shutil.rmtree(mirror, ignore_errors=True)
    for stage in stages().values():
        for name in stage_sources(stage) + [stage_tool.MANIFEST]:
            source = ROOT / stage.path / name
            target = mirror / stage.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.suffix in CPP_SUFFIXES:
                target.write_text(without_snippet_markers(book_view(source.read_text(), rel(source))))
            elif source.suffix in MARKER_SUFFIXES:
                target.write_text(without_snippet_markers(source.read_text()))
            else:
                shutil.copyfile(source, target)
    return mirror


def describe_file(path):
    """The first sentence of a file's opening `// name: what it is` comment."""
    first = path.read_text(errors="replace").splitlines()[:1]
    match = re.match(r"^(?://|#)\s*[\w./-]+:\s*(.+)$", first[0]) if first else None
    if not match:
        return ""
    sentence = re.split(r"(?<=[.:;])\s", match.group(1).strip())[0].rstrip(".:;")
    return sentence


def md_cell(text):
    return text.replace("|", "\\|")


def first_stage_files(stage):
    """Chapter NN of a first stage: everything is new. Its files and their sizes."""
    rows, total = [], 0
    for name in stage_sources(stage):
        path = ROOT / stage.path / name
        lines = len(book_view(path.read_text(), rel(path)).splitlines()) \
            if path.suffix in CPP_SUFFIXES else len(path.read_text(errors="replace").splitlines())
        total += lines
        what = describe_file(path)
        if not what and path.suffix == ".cpp":
            header = ROOT / stage.path / "include" / "looplab" / (path.stem + ".hpp")
            if header.is_file():
                what = f"the definitions declared in `looplab/{header.name}`"
        rows.append(f"| `{name}` | {lines} | {md_cell(what)} |")
    return "\n".join([
        f"Stage {stage.num} is the first stage, so there is no parent to compare it with: "
        f"everything is new. These are its {len(rows)} files, {total} lines in all "
        f"(counted as the book shows them), in `stages/{stage.folder}/`:",
        "",
        "| file | lines | what it holds |",
        "|---|---:|---|",
        *rows,
        "",
        "In a later chapter this section shows the chapter's diff against its parent "
        "stage (`tools/stage diff NN`).",
    ])


def colored_diff(text):
    """The unified diff as HTML, one span per line, for the book's stylesheet."""
    out = []
    for line in text.splitlines():
        kind = ("file" if line.startswith(("diff --git", "new file", "deleted file", "--- ", "+++ "))
                else "hunk" if line.startswith("@@") else "add" if line.startswith("+")
                else "del" if line.startswith("-") else "ctx")
        out.append(f'<span class="diff-{kind}">{html.escape(line)}</span>')
    return "\n".join(out)


def later_stage_diff(stage, parent, mirror):
    """Chapter NN of a later stage: its diff against the parent, markers removed."""
    tool = [str(ROOT / "tools" / "stage"), "--root", str(mirror), "diff", stage.num]
    stat = subprocess.run(tool + ["--stat"], capture_output=True, text=True, check=True).stdout
    full = subprocess.run(tool, capture_output=True, text=True, check=True).stdout
    (GENERATED / f"stage_{stage.num}.diff").write_text(full)
    rows = []
    for line in stat.splitlines():
        match = re.match(r"^\s*(\S+)\s+\|\s+\+(\d+)\s+-(\d+)\s*$", line)
        if match:
            status = ("new" if not (ROOT / parent.path / match.group(1)).exists()
                      else "removed" if not (ROOT / stage.path / match.group(1)).exists() else "changed")
            rows.append(f"| `{match.group(1)}` | {status} | +{match.group(2)} | -{match.group(3)} |")
    summary = stat.strip().splitlines()[-1].strip() if stat.strip() else "no file changed"
    if not rows:
        return f"Stage {stage.num} changes no file of stage {parent.num} (`tools/stage diff {stage.num}`)."
    return "\n".join([
        f"What this chapter changes in `stages/{parent.folder}/` to make `stages/{stage.folder}/` "
        f"({summary}; every other file is identical, as `tools/stage check` makes sure):",
        "",
        "| file | | added | removed |",
        "|---|---|---:|---:|",
        *rows,
        "",
        "\\htmlonly",
        f'<details class="stage-diff"><summary>The whole diff (<code>tools/stage diff {stage.num}</code>)'
        "</summary>",
        f'<pre class="stage-diff">{colored_diff(full)}</pre>',
        "</details>",
        "\\endhtmlonly",
    ])


def generate_diffs():
    """{number: Markdown} for @STAGE_DIFF(NN)@."""
    known = stages()
    mirror = None
    fragments = {}
    for number, stage in known.items():
        parent = stage_tool.parent_of({s.folder: s for s in known.values()}, stage)
        if parent is None:
            fragments[number] = first_stage_files(stage)
        else:
            mirror = mirror or mirror_for_diffs()
            fragments[number] = later_stage_diff(stage, parent, mirror)
        (GENERATED / f"stage_diff_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments


# ------------------------------------------------------------ benchmarks ----

def report_helpers():
    """format_ns and ratio_text from comparisons/report.py, so figures read as in the report."""
    sys.path.insert(0, str(ROOT / "comparisons"))
    try:
        import report  # noqa: E402
    finally:
        sys.path.pop(0)
    return report.format_ns, report.ratio_text


def first_docstring_line(path):
    """The first paragraph of a Python file's docstring, on one line, without a
    leading `name:` (a docstring's first sentence may wrap onto a second line)."""
    match = re.search(r'^\s*"""(.*?)"""', path.read_text(), re.S | re.M)
    if not match:
        return ""
    text = " ".join(match.group(1).strip().split("\n\n")[0].split())
    return re.sub(r"^\w+:\s*", "", text)


def workloads_of(group):
    """[(name, description)] of a group: its Python twins and its C++ benchmarks.
    A benchmark file that registers its benchmarks at run time (no BENCHMARK()
    macro, e.g. one variant per selector) is one workload, named and described
    by its opening `// name: what it measures` comment."""
    found = {}
    for twin in sorted((ROOT / "comparisons" / "asyncio" / group).glob("*.py")):
        if not twin.name.startswith("_"):
            found[twin.stem] = first_docstring_line(twin)
    for source in sorted((ROOT / "bench" / group).glob("*.cpp")):
        text = source.read_text()
        names = re.findall(r"^BENCHMARK\((\w+)\)", text, re.M)
        if not names:
            opening = re.match(r"^//\s*(\w+):", text)
            names = [opening.group(1)] if opening else []
        for name in names:
            if name not in found:
                what = benchmark_comment(text, name)
                found[name] = f"{what}; C++ only, no asyncio twin" if what else "C++ only, no asyncio twin"
    return list(found.items())


def benchmark_comment(text, name):
    """The first sentence of the `// name: ...` comment block that describes a benchmark."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(rf"^//\s*{re.escape(name)}:\s*(.*)$", line)
        if not match:
            continue
        words = [match.group(1)]
        for more in lines[i + 1:]:
            if not more.startswith("//") or not more[2:].strip():
                break  # the end of the comment, or of its first paragraph
            words.append(more[2:].strip())
        comment = " ".join(w for w in words if w)
        # The first sentence; "O(1). select() ..." ends one too.
        return re.split(r"(?<=\.)\s+(?=[A-Z])|(?<=\)\.)\s+", comment)[0].rstrip(".").rstrip(":")
    return ""


def report_header(report_dir):
    """{label: value} from the header of report.md (date, machine, mode, ...)."""
    header = {}
    path = report_dir / "report.md"
    if path.is_file():
        for line in path.read_text().splitlines():
            match = re.match(r"^- \*\*(.+?)\*\*: (.*)$", line)
            if match:
                header[match.group(1)] = match.group(2)
    return header


# Benchmark labels that only say which selector ran (io/pingpong.hpp labels
# every run with it): not a note about work the stage skips.
SELECTOR_NAMES = {"select", "poll", "epoll", "io_uring", "kqueue", "kqueue-shim"}
# What the report measures besides the workloads of its tables, and the group
# whose chapter shows it: the group that brought what it measures. (The
# selector backends come with chapter 4's group: its chapter shows chapter 3's
# workloads once per backend next to the plain-C floors, the targets the
# stage set itself, the fd_scaling series and the TCP echo servers.)
REPORT_EXTRAS = {"pollers": ("backends", "fd_scaling", "tcp_echo", "targets"),
                 # Chapter 6's coroutine echo server, next to asyncio's streams server.
                 "tasks": ("tcp_echo_coro",)}
# How the fallback (no report) lists each extra: [(workload, what one operation is)].
EXTRA_WORKLOADS = {
    "backends": [("reader_pingpong/<backend>, reader_pingpong_idle1000/<backend>",
                  "chapter 3's two workloads once on each selector backend (`bench/io/io_bench.cpp`), "
                  "next to the same ping-pong written in plain C on epoll and on libuv "
                  "(`comparisons/native/`)")],
    "tcp_echo": [("tcp_echo_1, tcp_echo_10, tcp_echo_100",
                  "one 100-byte request echoed by a TCP server on 127.0.0.1, with 1, 10 or 100 "
                  "connections (`comparisons/tcp_echo.py`, servers in `comparisons/echo/` and "
                  "`examples/`); wall time and server CPU per request")],
    "tcp_echo_coro": [("tcp_echo_coro_1, tcp_echo_coro_10",
                       "the same requests to the coroutine echo server, a task per connection "
                       "(`examples/tasks/tcp_echo_coro_server.cpp`, on epoll), next to asyncio's "
                       "streams server (`comparisons/echo/`); wall time and server CPU per request")],
}


def no_report(stage, workloads, why):
    rows = [f"| `{name}` | {md_cell(text)} |" for name, text in workloads]
    return "\n".join([
        f"\\note {why} So this page has no figures. To see how stage {stage.num} compares with "
        "CPython's asyncio and uvloop on these workloads, run `make report` (the full run, a few "
        "minutes) or `make report QUICK=1` (a short smoke run), then `make book` again.",
        "",
        f"The workloads chapter {stage.number} is measured on (each has a Google Benchmark "
        f"program in `bench/`, and a Python twin of the same name in `comparisons/asyncio/` "
        "unless it says otherwise):",
        "",
        "| workload | what one operation is |",
        "|---|---|",
        *rows,
    ])


@dataclass
class ReportData:
    """What the benchmark fragments read from build/report."""
    report_dir: Path
    summary: dict
    impls: dict
    header: dict
    format_ns: object
    ratio_text: object
    charts_out: Path

    def label(self, impl_id):
        return self.impls.get(impl_id, {}).get("label", impl_id)

    def chart(self, name, caption):
        """The report's chart `name`.svg copied where Doxygen finds images, as an
        \\image line; [] if the report has no such chart."""
        chart = self.report_dir / "charts" / f"{name}.svg"
        if not chart.is_file():
            return []
        target = self.charts_out / f"bench_{name}.svg"
        shutil.copyfile(chart, target)
        return ["", f'\\image html {target.name} "{caption}"']


def generate_benchmarks(report_dir):
    """{number: Markdown} for @BENCHMARKS(NN)@."""
    summary_path, impls_path = report_dir / "summary.json", report_dir / "implementations.json"
    have_report = summary_path.is_file() and impls_path.is_file()
    charts_out = GENERATED / "charts"
    shutil.rmtree(charts_out, ignore_errors=True)  # charts of an older report must not linger
    charts_out.mkdir(parents=True)
    data = None
    if have_report:
        format_ns, ratio_text = report_helpers()
        data = ReportData(report_dir, json.loads(summary_path.read_text()),
                          json.loads(impls_path.read_text()), report_header(report_dir),
                          format_ns, ratio_text, charts_out)
    fragments = {}
    for number, stage in stages().items():
        groups = groups_since(number)
        workloads = [w for group in groups for w in workloads_of(group)]
        extras = [extra for group in groups for extra in REPORT_EXTRAS.get(group, ())]
        listed = workloads + [w for extra in extras for w in EXTRA_WORKLOADS.get(extra, [])]
        ours = f"looplab_s{number:02d}"
        if not listed:
            fragments[number] = f"Chapter {number} adds no benchmark workload."
        elif data is None:
            fragments[number] = no_report(stage, listed, f"The benchmark report has not been built "
                                          f"on this machine (there is no `{rel(report_dir)}/summary.json`).")
        elif ours not in data.impls:
            fragments[number] = no_report(stage, listed, f"The benchmark report in `{rel(report_dir)}` "
                                          f"has no figures for stage {stage.num} (it was built before "
                                          "this stage existed).")
        else:
            parts = []
            tabled = [w for w in workloads if ours in data.summary.get(w[0], {})]
            if tabled:
                parts.append(benchmark_table(stage, tabled, data))
            for extra in extras:
                part = EXTRA_FRAGMENTS[extra](stage, data)
                if part:
                    parts.append(part)
            if not parts:
                fragments[number] = no_report(stage, listed, f"The benchmark report in "
                                              f"`{rel(report_dir)}` has no figures for stage {stage.num}'s "
                                              "workloads.")
            else:
                fragments[number] = "\n\n".join([report_intro(data), *parts, report_outro(data)])
        (GENERATED / f"benchmarks_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments


def report_intro(data):
    when = ", ".join(f"{key}: {data.header[key]}" for key in ("date", "mode") if key in data.header)
    return (f"Nanoseconds per operation (median), from the report in `{rel(data.report_dir)}`"
            + (f" ({md_cell(when)})" if when else "") + ". "
            + (f"Machine: {md_cell(data.header['machine'])}. " if "machine" in data.header else "")
            + "Ratios are measured in the same run; the absolute times mean little on another machine.")


def report_outro(data):
    return ("The whole report, with every workload and how it was measured: "
            f"`{rel(data.report_dir)}/index.html` (`make report`).")


def benchmark_table(stage, workloads, data):
    """The chapter's workloads: stage NN next to CPython asyncio and uvloop."""
    ours = f"looplab_s{stage.num}"
    summary, impls, format_ns, ratio_text = data.summary, data.impls, data.format_ns, data.ratio_text
    asyncio_id = "cpython_asyncio"
    uvloop_id = next((i for i, d in impls.items() if d.get("kind") == "uvloop"), None)
    uv_base = impls[uvloop_id].get("compared_with") if uvloop_id else None
    columns = [f"stage {stage.num}", "CPython asyncio", f"stage {stage.num} vs asyncio"]
    if uvloop_id:
        columns += ["uvloop", "uvloop vs asyncio (same interpreter)"]
    lines = ["| workload | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    notes, charts = [], []
    for name, _ in workloads:
        figures = summary.get(name, {})
        if ours not in figures:
            continue
        cells = [format_ns(figures[ours])]
        if asyncio_id in figures:
            cells += [format_ns(figures[asyncio_id]), ratio_text(figures[asyncio_id] / figures[ours])]
        else:
            cells += ["did not run", "n/a"]
        if uvloop_id:
            if uvloop_id in figures and uv_base in figures:
                cells += [format_ns(figures[uvloop_id]), ratio_text(figures[uv_base] / figures[uvloop_id])]
            else:
                cells += ["did not run", "n/a"]
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
        note = impls[ours].get("notes", {}).get(name)
        if note and note not in SELECTOR_NAMES:  # a label that only names the selector is no caveat
            notes.append(f"- `{name}`, stage {stage.num}: {md_cell(note)}")
        for suffix in ("", "-stages"):
            charts += data.chart(f"{name}{suffix}", name + (" across stages" if suffix else ""))
    legend = [f"*stage {stage.num}* is {impls[ours]['label']}"]
    if asyncio_id in impls:
        legend.append(f"*CPython asyncio* is {impls[asyncio_id]['label']}")
    if uvloop_id:
        base = impls.get(uv_base, {}).get("label", uv_base)
        legend.append(f"*uvloop* is {impls[uvloop_id]['label']}, compared with {base} on the same interpreter")
    out = [*lines, "", "In the columns, " + "; ".join(legend) + "."]
    if notes:
        out += ["", "What the benchmark says about itself (it does less than asyncio here):", "", *notes]
    return "\n".join(out + charts)


def backend_table(stage, data):
    """Stage NN's workloads that ran once per selector backend ("workload/<backend>"
    rows, implementation ids looplab_sNN_<backend>), next to the native C
    programs and the Python loops: one row per implementation, one column per
    workload."""
    ours = f"looplab_s{stage.num}"
    backends = [i for i, d in data.impls.items() if i.startswith(ours + "_") and d.get("backend")]
    if not backends:
        return ""
    tcp = data.summary.get("_tcp_echo") or {}  # shown by tcp_echo_fragment
    workloads = [name for name, figures in data.summary.items()
                 if not name.startswith("_") and name not in tcp and isinstance(figures, dict)
                 and any(b in figures for b in backends)]
    if not workloads:
        return ""
    kinds = {"native": 1, "asyncio": 2, "uvloop": 3}
    rows = [ours] + backends + sorted(
        (i for i, d in data.impls.items() if d.get("kind") in kinds),
        key=lambda i: kinds[data.impls[i]["kind"]])
    lines = ["| implementation | " + " | ".join(f"`{w}`" for w in workloads) + " |",
             "|---|" + "---:|" * len(workloads)]
    for impl_id in rows:
        cells = [data.format_ns(data.summary[w][impl_id]) if impl_id in data.summary[w] else "—"
                 for w in workloads]
        if all(cell == "—" for cell in cells):
            continue
        label = data.label(impl_id) + (" (default selector)" if impl_id == ours else "")
        lines.append(f"| {md_cell(label)} | " + " | ".join(cells) + " |")
    return "\n".join([
        f"**On every selector.** Stage {stage.num}'s workloads that ran once per backend "
        "(`workload/<backend>`), in ns per operation, next to the same work in plain C where "
        "there is a C version (\"(C)\" rows, `comparisons/native/`: the raw epoll floor is "
        "`epoll_wait()`, `read()` and `write()` and nothing else) and the Python loops:",
        "",
        *lines,
    ])


def fd_scaling_fragment(stage, data):
    """The fd_scaling series: idle descriptors down, backends across, and its chart."""
    series_by_stage = data.summary.get("_fd_scaling") or {}
    if not series_by_stage:
        return ""
    ours = f"looplab_s{stage.num}"
    stage_id = ours if ours in series_by_stage else sorted(series_by_stage)[-1]
    series = series_by_stage[stage_id]
    order = ["select", "poll", "epoll", "io_uring", "kqueue"]
    backends = sorted(series, key=lambda b: order.index(b) if b in order else len(order))
    idles = sorted({int(idle) for points in series.values() for idle in points})
    lines = ["| idle descriptors | " + " | ".join(backends) + " |", "|---:|" + "---:|" * len(backends)]
    for idle in idles:
        cells = [data.format_ns(series[b][str(idle)]) if str(idle) in series[b] else "—" for b in backends]
        lines.append(f"| {idle:,} | " + " | ".join(cells) + " |")
    which = (f"stage {stage.num}" if stage_id == ours else
             f"{data.label(stage_id)}, the latest stage the report measured (its selectors are stage "
             f"{stage.num}'s)")
    return "\n".join([
        f"**fd_scaling.** One round trip of `reader_pingpong` with N more descriptors watched that "
        f"never become ready, on each selector of {which}, in ns (`fd_scaling/<backend>/<N>`; "
        "select() stops at 1,000, below `FD_SETSIZE`):",
        "",
        *lines,
    ] + data.chart("fd_scaling", "fd_scaling: ns per round trip against idle descriptors watched, "
                                 "one line per selector"))


def tcp_echo_fragment(stage, data):
    """The TCP echo servers: requests per second and server CPU per request, by connection count."""
    by_workload = data.summary.get("_tcp_echo") or {}
    counts = sorted((int(w.rsplit("_", 1)[1]), w) for w in by_workload if re.fullmatch(r"tcp_echo_\d+", w))
    if not counts:
        return ""
    return "\n".join([
        "**tcp_echo.** One shared C++ client keeps C connections busy with 100-byte requests, each "
        "sent once the previous echo is back: requests per second over all connections, and the "
        "CPU time the server process spent per request, with in brackets its share in user space, "
        "outside the kernel (`comparisons/tcp_echo.py`):",
        "",
        *echo_server_table(data, by_workload, counts),
    ] + data.chart(counts[0][1], f"{counts[0][1]}: server CPU per request"))


def tcp_echo_coro_fragment(stage, data):
    """The coroutine echo server (tcp_echo_coro_C) next to asyncio's streams server."""
    by_workload = data.summary.get("_tcp_echo") or {}
    counts = sorted((int(w.rsplit("_", 1)[1]), w) for w in by_workload
                    if re.fullmatch(r"tcp_echo_coro_\d+", w))
    if not counts:
        return ""
    return "\n".join([
        "**tcp_echo_coro.** The coroutine echo server (`examples/tasks/tcp_echo_coro_server.cpp`, a "
        "task per connection, on epoll), driven by the same client as `tcp_echo`, next to asyncio's "
        "streams server, which is written the same way (its rows are its `tcp_echo` runs of the "
        "same report): requests per second over all connections, and the server's CPU time per "
        "request, with in brackets its share in user space:",
        "",
        *echo_server_table(data, by_workload, counts),
    ] + data.chart(counts[0][1], f"{counts[0][1]}: server CPU per request"))


def echo_server_table(data, by_workload, counts):
    """The rows of an echo table: one per server, requests/s and server CPU per request by C."""
    servers = []
    for _, workload in counts:
        for impl_id in by_workload[workload]:
            if impl_id not in servers:
                servers.append(impl_id)
    order = list(data.impls)
    servers.sort(key=lambda i: order.index(i) if i in order else len(order))

    def cell(workload, impl_id, key, fmt):
        value = by_workload[workload].get(impl_id, {}).get(key)
        return fmt(value) if value else "—"

    def cpu_cell(workload, impl_id):
        figures = by_workload[workload].get(impl_id, {})
        total, user = figures.get("server_cpu_ns_per_request"), figures.get("server_user_cpu_ns_per_request")
        if not total:
            return "—"
        if user is None:
            return data.format_ns(total)
        return f"{data.format_ns(total)} ({data.format_ns(user) if user >= 1 else '0'})"

    header = (["server"] + [f"requests/s, C={c}" for c, _ in counts]
              + [f"server CPU ns/request, C={c}" for c, _ in counts])
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for impl_id in servers:
        cells = ([cell(w, impl_id, "requests_per_second", lambda v: f"{v:,.0f}") for _, w in counts]
                 + [cpu_cell(w, impl_id) for _, w in counts])
        lines.append(f"| {md_cell(data.label(impl_id))} | " + " | ".join(cells) + " |")
    return lines


def targets_fragment(stage, data):
    """The goals the report checks (summary.json's _targets), met or not."""
    targets = [t for t in data.summary.get("_targets") or [] if t.get("text")]
    if not targets:
        return ""
    return "\n".join(["**Targets.** What the stage set out to reach, checked by the report on "
                      "this run's figures:", ""]
                     + [f"- {md_cell(t['text'])}" for t in targets])


EXTRA_FRAGMENTS = {"backends": backend_table, "fd_scaling": fd_scaling_fragment,
                   "tcp_echo": tcp_echo_fragment, "tcp_echo_coro": tcp_echo_coro_fragment,
                   "targets": targets_fragment}


# ----------------------------------------------------------------- tests ----

def first_comment(path):
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    return " ".join(lines)


def no_unit_tests(group, stage):
    """A group with no *_test.cpp (the differential tester): what its runner does."""
    runners = sorted((ROOT / "tests" / group).glob("*.py"))
    text = (f"The group `{group}` (since stage {stage.num}; `features.toml`) has no unit "
            f"test file")
    if not runners:
        return text + f"; `ctest --preset dev -L feature_{group}` runs what it has."
    runner = runners[0]
    what = docstring_summary(runner)
    return (text + f": CTest runs `tests/{group}/{runner.name}` against each stage from {stage.num} on "
            f"(`ctest --preset dev -L feature_{group}`)." + (f" {what}" if what else ""))


def docstring_summary(path):
    """The opening of a Python file's docstring: its first paragraph without the
    `name:` prefix or, when that is only a title, the first sentence after it."""
    match = re.search(r'^\s*"""(.*?)"""', path.read_text(), re.S | re.M)
    if not match:
        return ""
    paragraphs = [" ".join(p.split()) for p in match.group(1).strip().split("\n\n") if p.strip()]
    first = re.sub(r"^[\w.-]+:\s*", "", paragraphs[0]) if paragraphs else ""
    if len(first) < 60 and len(paragraphs) > 1:
        first = re.split(r"(?<=\.)\s+(?=[A-Z])", paragraphs[1])[0]
    return first


def generate_tests():
    """{number: Markdown} for @TESTS(NN)@."""
    fragments = {}
    for number, stage in stages().items():
        out = []
        for group in groups_since(number):
            units = sorted((ROOT / "tests" / group).glob("*_test.cpp"))
            scenarios = sorted((ROOT / "tests" / "scenarios" / group).glob("*.cpp"))
            count = sum(len(re.findall(r"^TEST(?:_F)?\(", u.read_text(), re.M)) for u in units)
            if units:
                out += [f"The group `{group}` (since stage {stage.num}; `features.toml`) has "
                        f"{count} unit tests in {len(units)} files under `tests/{group}/`: "
                        + ", ".join(f"`{u.name}`" for u in units) + "."]
            else:
                out += [no_unit_tests(group, stage)]
            if scenarios:
                out += ["", f"And {len(scenarios)} scenario twins: each is a C++ program in "
                        f"`tests/scenarios/{group}/` and a Python program of the same name in "
                        f"`comparisons/scenarios/{group}/`; both must print the `// expect:` lines "
                        "of the C++ file, so CPython decides what is right.", "",
                        "| scenario | what it shows |", "|---|---|"]
                for scenario in scenarios:
                    twin = ROOT / "comparisons" / "scenarios" / group / (scenario.stem + ".py")
                    what = first_docstring_line(twin) if twin.is_file() else first_comment(scenario)
                    out += [f"| `{scenario.stem}` | {md_cell(what)} |"]
            out += [""]
        if not out:
            out = [f"Chapter {number} adds no test group; the earlier groups still run against it.", ""]
        out += ["```sh",
                "cmake --preset dev && cmake --build --preset dev",
                f"ctest --preset dev -L stage{stage.num}      # everything that runs against stage {stage.num}",
                f"ctest --preset dev -L since{stage.num}      # only what chapter {stage.number} adds",
                f"build/dev/bin/scenarios_s{stage.num} --list  # the scenario twins, runnable by name",
                "```"]
        fragments[number] = "\n".join(out)
        (GENERATED / f"tests_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments


# ----------------------------------------------------------------- pages ----

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


def write_pages(fragments):
    """book/ -> build/book/src: placeholders replaced, navigation added."""
    pages = read_pages()
    order = reading_order(pages)
    shutil.rmtree(PAGES, ignore_errors=True)
    for page in pages.values():
        text = page.text

        def replace(match):
            name, number = match.group(1), int(match.group(2))
            return fragments[name][number]

        text = PLACEHOLDER.sub(replace, text)
        lines = text.splitlines()
        top = navigation(order, pages, page.label, "top")
        bottom = navigation(order, pages, page.label, "bottom")
        body = lines[1:]
        if page.label == "mainpage":
            text = "\n".join([lines[0], *body, "", bottom, ""])
        else:
            text = "\n".join([lines[0], "", top, "", *body, "", bottom, ""])
        target = PAGES / page.path.relative_to(BOOK)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return pages


def last_stage():
    return list(stages().values())[-1]


def write_doxyfile(pages):
    stage = last_stage()
    files = [PAGES / page.path.relative_to(BOOK) for page in all_pages_in_order(pages)]
    values = {
        "PAGE_FILES": " ".join(f'"{f}"' for f in files),
        "ROOT": str(ROOT),
        "OUT": str(OUT),
        "PAGES": str(PAGES),
        "GENERATED": str(GENERATED),
        "EXAMPLE_PATH": " ".join([str(ROOT / top) for top in EXAMPLE_DIRS] + [str(GENERATED)]),
        "API_INCLUDE": str(ROOT / stage.path / "include"),
        "API_STAGE": f"{stage.num} ({stage.title})",
        "FILTER": f"{ROOT / 'tools' / 'assignment'} filter --edition {EDITION}",
        "SOURCE_FILTER": f"{ROOT / 'tools' / 'book'} filter-source --edition {EDITION}",
        "STYLESHEET": str(BOOK / "book.css"),
    }
    template = (BOOK / "Doxyfile.in").read_text()

    def value(match):
        if match.group(1) not in values:
            raise BookError(f"book/Doxyfile.in: unknown variable @{match.group(1)}@")
        return values[match.group(1)]

    doxyfile = OUT / "Doxyfile"
    doxyfile.write_text(re.sub(r"@([A-Z_]+)@", value, template))
    return doxyfile


def doxygen_version():
    try:
        return subprocess.run(["doxygen", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        raise BookError("doxygen is not installed: tools/install-deps book") from None


def run_doxygen(doxyfile):
    version = doxygen_version()
    if version.split()[0] != DOXYGEN_VERSION:
        say(f"note: Doxygen {version} found; the book is written for {DOXYGEN_VERSION} (Debian 12's). "
            "Another version may warn, and a warning fails the build.")
    shutil.rmtree(HTML_DIR, ignore_errors=True)
    say(f"$ doxygen {rel(doxyfile)}")
    result = subprocess.run(["doxygen", str(doxyfile)], cwd=ROOT, capture_output=True, text=True)
    complaints = [line for line in result.stderr.splitlines() if line.strip()]
    for line in complaints:
        print(line, file=sys.stderr)
    if result.returncode != 0 or complaints:
        raise BookError(f"Doxygen reported {len(complaints)} problem(s) (exit status {result.returncode}); "
                        "the book builds with none")


def build(report_dir, demos=True):
    if not lint():
        raise BookError("fix the problems above first")
    if demos:
        shutil.rmtree(GENERATED, ignore_errors=True)  # nothing from an earlier build may linger
    GENERATED.mkdir(parents=True, exist_ok=True)
    if demos:
        build_demos()
    fragments = {"STAGE_DIFF": generate_diffs(), "BENCHMARKS": generate_benchmarks(report_dir),
                 "TESTS": generate_tests()}
    pages = write_pages(fragments)
    run_doxygen(write_doxyfile(pages))
    index = HTML_DIR / "index.html"
    if not index.is_file():
        raise BookError(f"Doxygen wrote no {rel(index)}")
    say(f"built {rel(index)}")


# --------------------------------------------------------------- browser ----

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars",
                  # Let the page's scripts (the tree view, the search box) finish before the
                  # DOM is dumped or the screenshot taken.
                  "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000"]


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise BookError("chromium is not installed: tools/install-deps book")


def chromium_run(args, timeout=60, attempts=3):
    """Run headless Chromium on a fresh profile; its stdout. On a loaded machine
    Chromium now and then never finishes a page: such a run is retried."""
    for attempt in range(1, attempts + 1):
        with tempfile.TemporaryDirectory(prefix="looplab-chromium-", ignore_cleanup_errors=True) as profile:
            command = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
            # Its own process group, so that a hung run is ended with all its helpers.
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, start_new_session=True)
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                say(f"chromium did not finish in {timeout} s (attempt {attempt} of {attempts})")
                continue
        if process.returncode != 0:
            raise BookError(f"chromium failed (exit status {process.returncode}):\n{err[-2000:]}")
        return out
    raise BookError(f"chromium did not finish in {timeout} s, {attempts} times: {' '.join(command)}")


def page_file(label):
    return HTML_DIR / ("index.html" if label == "mainpage" else f"{label}.html")


def links_in_nav(dom):
    """{prev, next, up: href} of each navigation bar in the DOM."""
    bars = re.findall(r'<div class="booknav booknav-(top|bottom)">(.*?)</div>', dom, re.S)
    found = {}
    for where, bar in bars:
        hrefs = {}
        for kind in ("prev", "up", "next"):
            span = re.search(rf'<span class="booknav-{kind}">(.*?)</span>', bar, re.S)
            link = re.search(r'href="([^"#]+)', span.group(1)) if span else None
            hrefs[kind] = link.group(1) if link else None
        found[where] = hrefs
    return found


DIAGRAM = re.compile(r'<(?:img|object|iframe|embed)\b[^>]*(?:src|data)="[^"]*'
                     r'(?:dot_inline_dotgraph|msc_inline_mscgraph|inline_dotgraph|inline_mscgraph)[^"]*"'
                     r'|<svg\b', re.S)
# What no code fragment of the book may show (the prose may name them).
FORBIDDEN_IN_CODE = [(re.compile(r"//\s*(BEGIN|END) SOLUTION"), "a solution marker"),
                     (re.compile(r"//\s*(BEGIN|END) STUB"), "a stub marker"),
                     (re.compile(r"TODO\(chapter"), "a stub's TODO"),
                     (re.compile(r"^\s*(//|#)\s*\[[\w.:-]+\]\s*$", re.M), "a snippet marker line")]
LEFTOVER_PLACEHOLDER = re.compile(r"@[A-Z][A-Z_]*\(\d+\)@")
# A Doxygen command that reached the page as text (outside code).
RAW_COMMAND = re.compile(r"(?<![\w\\])\\(?:note|ref|snippet\w*|image|dot|enddot|msc|endmsc|verbinclude|"
                         r"htmlonly|endhtmlonly|code|endcode)\b")


def prose_text(dom):
    """The page's text outside code: fragments, <pre> and <code> removed."""
    text = re.sub(r'<div class="fragment">.*?</div><!-- fragment -->', " ", dom, flags=re.S)
    text = re.sub(r"<(pre|code|tt|script|style)\b.*?</\1>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def snippet_lines(file_name, block):
    """The lines of a \\snippet as this edition's filter hands them to Doxygen."""
    targets = resolve_example(file_name)
    if len(targets) != 1:
        return []
    text = targets[0].read_text(errors="replace")
    if targets[0].suffix in CPP_SUFFIXES:
        text = book_view(text, rel(targets[0]))
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


def snippet_evidence(page):
    """Code that the page's snippets must bring onto it: the longest line of
    each snippet, and in the course edition every line of a student's task."""
    wanted = []
    for _, line in doc_lines(page.text):
        for match in SNIPPET.finditer(line):
            lines = [text.strip() for text in snippet_lines(match.group(3), match.group(4)) if text.strip()]
            if lines:
                wanted.append(max(lines, key=len))
            wanted += [text for text in lines if "You write this" in text and text not in wanted]
    return wanted


def giveaway_lines():
    """{line: region} of the lines that give a region's solution away: its
    own, less those that some stage source shows outside every region (a
    later stage may use the same line in code of its own)."""
    found = {line: region.name for region in REGIONS.values()
             for line in assignment_tool.solution_lines(region)}
    shown = set()
    for stage in stages().values():
        for name in stage_tool.stage_files(ROOT, stage):
            path = ROOT / stage.path / name
            if path.suffix in CPP_SUFFIXES:
                text = assignment_tool.book_text(path.read_text(), REGIONS, "course", name=rel(path))
                shown |= {line.strip() for line in text.splitlines()}
    return {line: region for line, region in found.items() if line not in shown}


DIAGRAM_FILE = re.compile(r'(?:src|data)="([^"]*(?:inline_dotgraph|inline_mscgraph)[^"]*)"')


def check_chapter(page, dom, fragments, code, name):
    """What a rendered chapter must show: a code fragment for every \\snippet, a
    diagram for every \\dot and \\msc (whose image files exist), the demo's
    output, and the lines of code its snippets are there for."""
    problems = []
    lines = [line for _, line in doc_lines(page.text)]
    raw_lines = page.text.splitlines()
    snippets = sum(len(SNIPPET.findall(line)) for line in lines)
    if not fragments:
        problems.append(f"{name}: no code fragment (\\snippet) on the page")
    elif len(fragments) < snippets:
        problems.append(f"{name}: {len(fragments)} code fragments for {snippets} \\snippet commands: "
                        "a snippet rendered empty or not at all")
    diagrams = sum(1 for line in raw_lines if re.match(r"^\s*[\\@](dot|msc)\b", line))
    found = DIAGRAM.findall(dom)
    if not found:
        problems.append(f"{name}: no diagram (an <img>, <object> or <svg> from \\dot or \\msc)")
    elif len(found) < diagrams:
        problems.append(f"{name}: {len(found)} diagrams on the page for {diagrams} \\dot/\\msc blocks")
    for image in sorted(set(DIAGRAM_FILE.findall(dom))):
        if not (HTML_DIR / image).is_file():
            problems.append(f"{name}: the diagram image {image} was not written")
    demo = re.search(r"demo_s(\d\d)\.txt", page.text)
    if demo:
        output = GENERATED / f"demo_s{demo.group(1)}.txt"
        first = next((text.strip() for text in output.read_text().splitlines() if text.strip()), "") \
            if output.is_file() else ""
        if first and first not in code:
            problems.append(f"{name}: the demo's output ({first!r}) is not on the page")
    for evidence in snippet_evidence(page):
        if evidence not in code:
            problems.append(f"{name}: the code {evidence!r}, which one of its snippets shows, is not on the page")
    return problems


def check_browser():
    if not (HTML_DIR / "index.html").is_file():
        raise BookError("the book is not built: make book")
    pages = read_pages()
    order = reading_order(pages)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    giveaways = giveaway_lines() if EDITION == "course" else {}
    for i, label in enumerate(order):
        path = page_file(label)
        if not path.is_file():
            problems.append(f"{rel(path)}: missing (page {label})")
            continue
        dom = chromium_run(["--dump-dom", path.as_uri()])
        name = rel(path)
        if "</html>" not in dom:
            problems.append(f"{name}: chromium returned no document")
            continue
        # Navigation: both bars link to the neighbours in the reading order.
        expected = {"prev": order[i - 1] if i > 0 else None, "next": order[i + 1] if i + 1 < len(order) else None}
        bars = links_in_nav(dom)
        wanted_bars = ["bottom"] if label == "mainpage" else ["top", "bottom"]
        for where in wanted_bars:
            if where not in bars:
                problems.append(f"{name}: no {where} navigation bar (div.booknav-{where})")
                continue
            for kind, target in expected.items():
                href = bars[where][kind]
                want = page_file(target).name if target else None
                if href != want:
                    problems.append(f"{name}: the {where} bar's {kind} link is {href or 'missing'}, "
                                    f"expected {want or 'none'}")
        fragments = re.findall(r'<div class="fragment">(.*?)</div><!-- fragment -->', dom, re.S)
        code = "\n".join(html.unescape(re.sub(r"<[^>]+>", "", f)) for f in fragments)
        code += "\n".join(html.unescape(re.sub(r"<[^>]+>", "", p))
                          for p in re.findall(r"<pre\b[^>]*>(.*?)</pre>", dom, re.S))
        for pattern, what in FORBIDDEN_IN_CODE:
            found = pattern.search(code)
            if found:
                problems.append(f"{name}: a code block shows {what}: {found.group(0).strip()!r}")
        if EDITION == "reader" and "You write this" in code:
            problems.append(f"{name}: the reader's edition shows a student's task (\"You write this\")")
        code_lines = {line.strip() for line in code.splitlines()}
        for line in sorted(code_lines & giveaways.keys()):
            problems.append(f"{name}: the course edition shows a line of the solution of region "
                            f"{giveaways[line]}: {line!r}")
        leftover = LEFTOVER_PLACEHOLDER.search(html.unescape(dom))
        if leftover:
            problems.append(f"{name}: a placeholder was not replaced: {leftover.group(0)}")
        raw = RAW_COMMAND.search(prose_text(dom))
        if raw:
            problems.append(f"{name}: the text shows a Doxygen command as is ({raw.group(0)!r}): "
                            "something before it broke the Markdown (an unclosed quote or block)")
        if re.match(r"ch(0[1-9]|[1-9]\d)$", label):
            problems += check_chapter(pages[label], dom, fragments, code, name)
        shot = SCREENSHOTS / ("chapter" + label[2:] + ".png" if label.startswith("ch") else f"{label}.png")
        chromium_run([f"--screenshot={shot}", "--window-size=1280,2400", path.as_uri()])
        if not shot.is_file() or shot.stat().st_size < 10_000:
            problems.append(f"{rel(shot)}: no screenshot was written")
        say(f"checked {name}" + (f", screenshot {rel(shot)}" if shot.is_file() else ""))
    # The exercises' answer keys are for instructors: no page of either edition shows one.
    for page in sorted(HTML_DIR.glob("*.html")):
        if ANSWER_KEY_TITLE in page.read_text(errors="replace"):
            problems.append(f"{rel(page)}: shows an exercise answer key ({rel(ANSWER_KEYS)})")
    if problems:
        for problem in problems:
            print(f"book check-browser: {problem}", file=sys.stderr)
        raise BookError(f"{len(problems)} problem(s) in the rendered pages")
    say(f"check-browser: {len(order)} pages in reading order look right; screenshots in {rel(SCREENSHOTS)}"
        + (f"; none shows any of the {len(giveaways)} lines that give a region away" if giveaways else ""))


# ------------------------------------------------------------------- cli ----

def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/book", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("lint", help="check the snippet markers and references")
    p = sub.add_parser("build", help="build the book into build/book/html (the course edition: "
                       "build/book-course/html)")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p.add_argument("--report-dir", type=Path, default=REPORT,
                   help="the benchmark report to take figures from (default: build/report)")
    p.add_argument("--no-demos", action="store_true",
                   help="reuse the demo outputs already in build/book/generated")
    p = sub.add_parser("check-browser", help="check the built pages in headless Chromium")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p = sub.add_parser("filter-source", help="print a source as the API reference lists it "
                       "(Doxygen's source filter)")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    set_edition(getattr(args, "edition", "reader"))
    try:
        if args.command == "lint":
            return 0 if lint() else 1
        if args.command == "build":
            build(args.report_dir.resolve(), demos=not args.no_demos)
        elif args.command == "check-browser":
            check_browser()
        elif args.command == "filter-source":
            sys.stdout.write(source_listing(args.file.read_text(errors="replace"), str(args.file)))
        return 0
    except BookError as error:
        print(f"book: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
