"""tools/book check-browser: the built pages as headless Chromium renders them."""
import html
import re
import sys

from looplab_tools import assignment as assignment_tool
from looplab_tools import stage as stage_tool
from looplab_tools.book.chromium import chromium_run
from looplab_tools.book.config import ANSWER_KEY_TITLE, ANSWER_KEYS, ROOT, BookError, rel
from looplab_tools.book.demos import DEMO_OUTPUT, is_generated_output
from looplab_tools.book.pages import SNIPPET, all_pages_in_order, doc_lines, read_pages, reading_order
from looplab_tools.book.sources import CPP_SUFFIXES, REGIONS, snippet_lines, stages


def page_file_name(label):
    """The HTML file Doxygen writes for the page `label`."""
    return "index.html" if label == "mainpage" else f"{label}.html"


def page_file(label, edition):
    return edition.html / page_file_name(label)


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
# Pages whose subject is the book's own syntax: they show marker lines and
# placeholders on purpose, as examples, so those two checks skip them.
SYNTAX_PAGES = {"chapter_template"}
LEFTOVER_PLACEHOLDER = re.compile(r"@[A-Z][A-Z_]*\((?:\d+|[a-z0-9_]+/[a-z0-9_]+)\)@")
# A Doxygen command that reached the page as text (outside code).
RAW_COMMAND = re.compile(r"(?<![\w\\])\\(?:note|ref|snippet\w*|image|dot|enddot|msc|endmsc|verbinclude|"
                         r"htmlonly|endhtmlonly|code|endcode)\b")


def prose_text(dom):
    """The page's text outside code: fragments, <pre> and <code> removed."""
    text = re.sub(r'<div class="fragment">.*?</div><!-- fragment -->', " ", dom, flags=re.S)
    text = re.sub(r"<(pre|code|tt|script|style)\b.*?</\1>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def snippet_evidence(page, edition):
    """Code that the page's snippets must bring onto it: the longest line of
    each snippet, and in the course edition every line of a student's task."""
    wanted = []
    for _, line in doc_lines(page.text):
        for match in SNIPPET.finditer(line):
            lines = [text.strip() for text in snippet_lines(match.group(3), match.group(4), edition) if text.strip()]
            if lines:
                wanted.append(max(lines, key=len))
            wanted += [text for text in lines if assignment_tool.STUDENT_TASK in text and text not in wanted]
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


def check_chapter(page, dom, fragments, code, name, edition):
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
        if not (edition.html / image).is_file():
            problems.append(f"{name}: the diagram image {image} was not written")
    demo = re.search(r"demo_s(\d\d)\.txt", page.text)
    if demo:
        output = edition.generated / f"demo_s{demo.group(1)}.txt"
        first = next((text.strip() for text in output.read_text().splitlines() if text.strip()), "") \
            if output.is_file() else ""
        if first and first not in code:
            problems.append(f"{name}: the demo's output ({first!r}) is not on the page")
    for evidence in snippet_evidence(page, edition):
        if evidence not in code:
            problems.append(f"{name}: the code {evidence!r}, which one of its snippets shows, is not on the page")
    return problems


SCREENSHOT_SIZE = "--window-size=1280,2400"


def check_browser(edition):
    """Every page as Chromium renders it (the reading order, then the
    appendices, which have no navigation bars), a screenshot of each, and no
    page showing an answer key; a BookError lists the problems."""
    if not (edition.html / "index.html").is_file():
        raise BookError("the book is not built: make book")
    pages = read_pages()
    order = reading_order(pages)
    edition.screenshots.mkdir(parents=True, exist_ok=True)
    problems = []
    giveaways = giveaway_lines() if edition.name == "course" else {}
    for i in range(len(order)):
        problems += check_page(pages, order, i, giveaways, edition)
    appendices = [page.label for page in all_pages_in_order(pages) if page.label not in order]
    for label in appendices:
        problems += check_page(pages, [label], 0, giveaways, edition, navigation=False)
    # The exercises' answer keys are for instructors: no page of either edition shows one.
    problems += answer_key_pages(edition.html)
    if problems:
        for problem in problems:
            print(f"book check-browser: {problem}", file=sys.stderr)
        raise BookError(f"{len(problems)} problem(s) in the rendered pages")
    edition.say(f"check-browser: {len(order)} pages in reading order and {len(appendices)} appendices "
                "look right; screenshots in "
                f"{rel(edition.screenshots)}"
                + (f"; none shows any of the {len(giveaways)} lines that give a region away" if giveaways else ""))


def check_page(pages, order, i, giveaways, edition, navigation=True):
    """The problems of page `i` of `order` as Chromium renders it (with its
    navigation bars, for the reading order); its screenshot."""
    label = order[i]
    path = page_file(label, edition)
    if not path.is_file():
        return [f"{rel(path)}: missing (page {label})"]
    chapter = re.fullmatch(r"ch(\d\d)", label)
    shot = edition.screenshots / (f"chapter{chapter.group(1)}.png" if chapter else f"{label}.png")
    shot.unlink(missing_ok=True)
    # One Chromium run both dumps the DOM and takes the screenshot (headless
    # Chromium 112+ does every command it is given; two runs a page were a
    # third of book-check's time). An older one takes the screenshot in a
    # second run, below.
    dom = chromium_run(["--dump-dom", f"--screenshot={shot}", SCREENSHOT_SIZE, path.as_uri()], edition)
    name = rel(path)
    if "</html>" not in dom:
        return [f"{name}: chromium returned no document"]
    problems = check_navigation(dom, order, i, name) if navigation else []
    fragments = re.findall(r'<div class="fragment">(.*?)</div><!-- fragment -->', dom, re.S)
    code = "\n".join(html.unescape(re.sub(r"<[^>]+>", "", f)) for f in fragments)
    code += "\n".join(html.unescape(re.sub(r"<[^>]+>", "", p))
                      for p in re.findall(r"<pre\b[^>]*>(.*?)</pre>", dom, re.S))
    problems += check_code(code, name, giveaways, edition, syntax_page=label in SYNTAX_PAGES)
    problems += check_text(dom, name, syntax_page=label in SYNTAX_PAGES)
    problems += check_outputs(pages[label], code, name, edition)
    if re.match(r"ch(0[1-9]|[1-9]\d)$", label):
        problems += check_chapter(pages[label], dom, fragments, code, name, edition)
    if not shot.is_file():
        chromium_run([f"--screenshot={shot}", SCREENSHOT_SIZE, path.as_uri()], edition)
    if not shot.is_file() or shot.stat().st_size < 10_000:
        problems.append(f"{rel(shot)}: no screenshot was written")
    edition.say(f"checked {name}" + (f", screenshot {rel(shot)}" if shot.is_file() else ""))
    return problems


VERBINCLUDE = re.compile(r"(?<!\\)[\\@]verbinclude[ \t]+(\S+)")


def check_outputs(page, code, name, edition):
    """Every program output a page shows with \\verbinclude (demos.py: the
    book's programs, run at build time) is on the rendered page: its first
    line that is not blank, in a code block."""
    problems = []
    for _, line in doc_lines(page.text):
        for match in VERBINCLUDE.finditer(line):
            output = edition.generated / match.group(1)
            if DEMO_OUTPUT.match(match.group(1)) or not is_generated_output(match.group(1)):
                continue  # a demo's (check_chapter looks for it), or a file of the sources
            first = next((text.strip() for text in output.read_text().splitlines() if text.strip()), "") \
                if output.is_file() else None
            if first is None:
                problems.append(f"{name}: {rel(output)}, which the page shows, was not written")
            elif first and first not in code:
                problems.append(f"{name}: the output of a program ({first!r}, {match.group(1)}) is not on the page")
    return problems


def check_navigation(dom, order, i, name):
    """Both bars of page `i` (the front page: its bottom bar) link to its
    neighbours in the reading order."""
    problems = []
    label = order[i]
    expected = {"prev": order[i - 1] if i > 0 else None, "next": order[i + 1] if i + 1 < len(order) else None}
    bars = links_in_nav(dom)
    wanted_bars = ["bottom"] if label == "mainpage" else ["top", "bottom"]
    for where in wanted_bars:
        if where not in bars:
            problems.append(f"{name}: no {where} navigation bar (div.booknav-{where})")
            continue
        for kind, target in expected.items():
            href = bars[where][kind]
            want = page_file_name(target) if target else None
            if href != want:
                problems.append(f"{name}: the {where} bar's {kind} link is {href or 'missing'}, "
                                f"expected {want or 'none'}")
    return problems


def check_code(code, name, giveaways, edition, syntax_page=False):
    """What the page's code may not show: a marker, a stub's TODO (except on a
    page about that syntax), in the reader's edition a student's task, in the
    course edition a line of a solution (giveaways: {line: region})."""
    problems = []
    for pattern, what in [] if syntax_page else FORBIDDEN_IN_CODE:
        found = pattern.search(code)
        if found:
            problems.append(f"{name}: a code block shows {what}: {found.group(0).strip()!r}")
    if edition.name == "reader" and assignment_tool.STUDENT_TASK in code:
        problems.append(f"{name}: the reader's edition shows a student's task (\"{assignment_tool.STUDENT_TASK}\")")
    code_lines = {line.strip() for line in code.splitlines()}
    for line in sorted(code_lines & giveaways.keys()):
        problems.append(f"{name}: the course edition shows a line of the solution of region "
                        f"{giveaways[line]}: {line!r}")
    return problems


def check_text(dom, name, syntax_page=False):
    """No placeholder left on the page (but on a page about that syntax), no
    Doxygen command shown as text."""
    problems = []
    leftover = None if syntax_page else LEFTOVER_PLACEHOLDER.search(html.unescape(dom))
    if leftover:
        problems.append(f"{name}: a placeholder was not replaced: {leftover.group(0)}")
    raw = RAW_COMMAND.search(prose_text(dom))
    if raw:
        problems.append(f"{name}: the text shows a Doxygen command as is ({raw.group(0)!r}): "
                        "something before it broke the Markdown (an unclosed quote or block)")
    return problems


def answer_key_pages(html_dir):
    """A problem for each HTML page in `html_dir` that shows an exercise's answer key."""
    return [f"{rel(page)}: shows an exercise answer key ({rel(ANSWER_KEYS)})"
            for page in sorted(html_dir.glob("*.html")) if ANSWER_KEY_TITLE in page.read_text(errors="replace")]
