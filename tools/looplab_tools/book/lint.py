"""tools/book lint: the snippet markers in the sources, the references to them
in the pages, and what the chapter template and the assignment pages require."""
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from looplab_tools import assignment as assignment_tool
from looplab_tools import stage as stage_tool
from looplab_tools.book.config import BOOK, ROOT, BookError, rel
from looplab_tools.book.demos import generated_outputs, is_generated_output
from looplab_tools.book.pages import DOXYGEN_BLOCKS, PLACEHOLDER, PLACEHOLDER_NAMES, SNIPPET, doc_lines, read_pages
from looplab_tools.book.scenarios import ANY_SCENARIO, lint_scenarios
from looplab_tools.book.sources import (CPP_SUFFIXES, EXAMPLE_DIRS, MARKER_LINE, MARKER_SUFFIXES, REGIONS,
                                        book_view, example_files, features, resolve_example, stages)

# Folders whose markers must all be used by the book (but a stage's assignment/
# folder: its regions, hidden tests and extension lab, which no edition shows).
MARKERS_MUST_BE_USED = ["stages", "bench", "examples"]
# tools/assignment's group of a stage's extension lab: only a stage with a lab grades it.
LAB_GROUP = "extension lab"
INCLUDE = re.compile(r"(?<!\\)[\\@](include(?:lineno|doc)?|verbinclude|dontinclude)(\{[^}]*\})?[ \t]+(\S+)")
PAGE_REF = re.compile(r"(?<!\\)[\\@](?:ref|subpage)[ \t]+([A-Za-z0-9_]+)")
# A \ref whose "link text" opens a quote that the line does not close.
REF_TEXT_OPEN = re.compile(r'(?<!\\)[\\@]ref[ \t]+[A-Za-z0-9_]+[ \t]+"[^"]*$')
CHAPTER_FILE = re.compile(r"^(\d\d)_[a-z0-9_]+\.md$")
# Commands that make a page Doxygen-only (an assignment page is also a plain README).
DOXYGEN_COMMAND = re.compile(r"(?<![\w`\\])[\\@](?:snippet\w*|include\w*|verbinclude|ref|subpage|page|"
                             r"section|subsection|image|dot|msc|htmlonly|code|endcode|verbatim|"
                             r"anchor|cite|note|warning|see|tableofcontents)\b")


@dataclass
class Marker:
    """A snippet marker: the file, the name, the lines of its marker lines."""
    file: Path
    name: str
    lines: list = field(default_factory=list)  # line numbers of its marker lines


def lint_sources(errors, edition):
    """Markers in the example files. Returns {(file, name): Marker}; the
    assignment regions' markers are checked by tools/stage, not listed."""
    markers = {}
    for path in example_files():
        if path.suffix not in MARKER_SUFFIXES:
            continue
        text = path.read_text(errors="replace")
        if path.suffix in CPP_SUFFIXES and path.is_relative_to(ROOT / "stages"):
            try:
                book_view(text, edition, rel(path))
            except assignment_tool.AssignmentError as error:
                errors.append(f"{error}")
        for name, marker in markers_in(path, text, errors).items():
            markers[(path, name)] = marker
    return markers


def markers_in(path, text, errors):
    """{name: Marker} of the snippet markers in one file's `text` (an assignment
    region's marker lines are not listed); a marker not on exactly two lines
    is an error."""
    lines = text.splitlines()
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
    return found


def lint_snippets(pages, markers, errors):
    """Every \\snippet names one existing file and marker. Returns the markers used."""
    used = set()
    for page in pages.values():
        for number, line in doc_lines(page.text):
            for match in SNIPPET.finditer(line):
                file_name, block = match.group(3), match.group(4)
                target = snippet_target(f"{page.name}:{number}", file_name, block, markers, errors)
                if target is not None:
                    used.add((target, block))
            for match in INCLUDE.finditer(line):
                command, file_name = match.group(1), match.group(3)
                if command == "verbinclude" and is_generated_output(file_name):
                    continue  # a demo's or a program's output, written by the build
                if not resolve_example(file_name):
                    errors.append(f"{page.name}:{number}: \\{command} {file_name}: no such file under "
                                  f"{', '.join(d + '/' for d in EXAMPLE_DIRS)}")
    return used


def snippet_target(where, file_name, block, markers, errors):
    """The file a `\\snippet file_name block` shows, if it names one existing file
    and one of its markers; None (and the reason in `errors`) if not."""
    targets = resolve_example(file_name)
    if not targets:
        errors.append(f"{where}: \\snippet {file_name} {block}: no such file under "
                      f"{', '.join(d + '/' for d in EXAMPLE_DIRS)} (paths are stage-qualified, "
                      "e.g. 01_callback_queue/src/event_loop.cpp)")
        return None
    if len(targets) > 1:
        errors.append(f"{where}: \\snippet {file_name}: ambiguous, it names "
                      f"{', '.join(rel(t) for t in targets)}; qualify the path")
        return None
    target = targets[0]
    if file_name.count("/") == 0 or (target.is_relative_to(ROOT / "stages")
                                     and not re.match(r"\d\d_", file_name)):
        errors.append(f"{where}: \\snippet {file_name}: qualify the path with its folder "
                      "(01_callback_queue/src/event_loop.cpp): a bare name becomes "
                      "ambiguous as soon as a second stage has the same file")
    if block in REGIONS:
        errors.append(f"{where}: \\snippet {file_name} {block}: [{block}] is an assignment "
                      "region; show the snippet around it (its lines are dropped from the book)")
        return None
    if (target, block) not in markers:
        errors.append(f"{where}: \\snippet {file_name} {block}: {rel(target)} has no "
                      f"marker lines `// [{block}]`")
        return None
    return target


def lint_unused_markers(pages, markers, used, errors, warnings):
    """Every marker in stages/, bench/ and examples/ is used by a \\snippet of the
    chapter of the stage or group that brings it; a chapter not written yet
    makes its markers wait (a warning)."""
    known = stages()
    chapters = {int(m.group(1)) for page in pages.values()
                if page.path.parent == BOOK and (m := CHAPTER_FILE.match(page.path.name))}
    waiting = {}
    for (path, name), marker in sorted(markers.items(), key=lambda item: (str(item[0][0]), item[0][1])):
        if (path, name) in used or not must_be_used(path):
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


def must_be_used(path):
    """Whether the book must use every marker of `path` (MARKERS_MUST_BE_USED)."""
    if not any(path.is_relative_to(ROOT / top) for top in MARKERS_MUST_BE_USED):
        return False
    parts = path.relative_to(ROOT).parts
    return not (parts[0] == "stages" and len(parts) > 2 and parts[2] == stage_tool.ASSIGNMENT)


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


def lint_programs(errors, root=ROOT, since=None):
    """The programs the build runs for the pages (demos.py) write files of
    different names: two programs named alike would overwrite each other's
    output."""
    for name, programs in generated_outputs(root, since).items():
        if len(programs) > 1:
            sources = " and ".join(p.source.relative_to(root).as_posix() for p in programs)
            errors.append(f"{name}: written by {sources}; "
                          "the programs whose output the book shows need names of their own")


# Doxygen 1.9.4's Markdown pass opens these blocks even inside a `code span`, and
# then swallows everything up to the next closing command, fences included.
# A Markdown code span (`code`, ``code``).
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
BLOCK_IN_CODE_SPAN = re.compile(r"(`+)[^`]*?(?<!\\)[\\@](" + "|".join(DOXYGEN_BLOCKS) + "|"
                                + "|".join(DOXYGEN_BLOCKS.values()) + r")\b[^`]*?\1")


def lint_pages(pages, errors, warnings):
    """Every page: what Doxygen 1.9.4 misreads, its place in the contents, its
    placeholders and \\ref commands; then the chapters and assignment pages."""
    known = stages()
    listed = {m.group(1) for _, line in doc_lines(pages["mainpage"].text) for m in PAGE_REF.finditer(line)}
    for page in pages.values():
        lint_code_spans(page, errors)
        lint_bold_code(page, warnings)
        if page.label != "mainpage" and page.label not in listed:
            errors.append(f"{page.name}:1: page {page.label} is not in the contents of book/index.md: "
                          f"list it there with \\ref {page.label}")
        lint_refs_and_placeholders(page, known, errors)
    lint_chapters(pages, known, errors, warnings)
    lint_assignments(pages, known, errors)


def lint_code_spans(page, errors):
    """The code spans of a page (outside fenced code) that Doxygen 1.9.4 misreads."""
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


# **`code` ...**: Doxygen 1.9.4 does not make bold an emphasis that opens with a code
# span; the page shows the asterisks. (One that opens with a word is fine.)
BOLD_OPENS_WITH_CODE = re.compile(r"(?<![*\w])\*\*`")


def lint_bold_code(page, warnings):
    """A note for each bold span of a page that opens with a code span: Doxygen
    1.9.4 shows it as **`code`**, asterisks and all."""
    for number, line in doc_lines_keeping_code_spans(page.text):
        if BOLD_OPENS_WITH_CODE.search(line):
            warnings.append(f"{page.name}:{number}: a bold span opens with a code span; Doxygen 1.9.4 "
                            "shows its asterisks: start it with a word")


def doc_lines_keeping_code_spans(text):
    """(line number, text) of the lines outside fenced code, code spans kept."""
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        opening = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            fence = None if opening and opening.group(1).startswith(fence) else fence
            continue
        if opening:
            fence = opening.group(1)
            continue
        yield number, line


def lint_refs_and_placeholders(page, known, errors):
    """A page's \\ref commands keep their quoted text on their line; each
    placeholder is a known one, of an existing stage, with two digits."""
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
        leftover = re.search(r"@[A-Z][A-Z_]*\([^)]*\)@", PLACEHOLDER.sub("", ANY_SCENARIO.sub("", line)))
        if leftover:
            errors.append(f"{page.name}:{number}: {leftover.group(0)}: placeholders take a "
                          "two-digit stage number, e.g. @BENCHMARKS(01)@")


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
            if PLACEHOLDER.search(line) or ANY_SCENARIO.search(line):
                errors.append(f"{page.name}:{number}: no placeholders in an assignment page (README.md)")
        for group, weight in assignment_tool.WEIGHTS.items():
            if group == LAB_GROUP and not has_lab(known.get(nn), page, errors):
                continue
            row = re.search(rf"^\|\s*{re.escape(group)}\s*\|.*\|\s*{weight}\b.*$", page.text, re.M)
            if not row:
                errors.append(f"{page.name}: the grading table needs a row `| {group} | ... | {weight} ...` "
                              "(the weight tools/assignment gives it)")
                continue
            selection = assignment_tool.GROUP_SELECTION[group].format(nn=f"{nn:02d}")
            if selection not in row.group(0):
                errors.append(f"{page.name}: the row of group '{group}' must say which tests the grader "
                              f"counts there, as tools/assignment does: {selection}")


def has_lab(stage, page, errors):
    """Whether the stage of an assignment page has an extension lab."""
    if stage is None:
        return False
    try:
        return assignment_tool.lab_of(stage)[0] is not None
    except assignment_tool.AssignmentError as error:
        errors.append(f"{page.name}: {error}")
        return False


def lint(edition):
    """Print every problem; return True if there is none."""
    errors, warnings = [], []
    try:
        pages = read_pages()
    except BookError as error:
        print(f"book lint: {error}", file=sys.stderr)
        return False
    markers = lint_sources(errors, edition)
    used = lint_snippets(pages, markers, errors)
    lint_unused_markers(pages, markers, used, errors, warnings)
    lint_pages(pages, errors, warnings)
    lint_scenarios(pages, errors)
    lint_programs(errors)
    for warning in warnings:
        edition.say(f"lint: note: {warning}")
    for error in errors:
        print(f"book lint: {error}", file=sys.stderr)
    if errors:
        print(f"book lint: {len(errors)} problem(s)", file=sys.stderr)
        return False
    edition.say(f"lint: {len(markers)} markers, {len(pages)} pages, every snippet reference resolves")
    return True
