"""@STAGE_DIFF(NN)@: what chapter NN changes, from `tools/stage diff` on a copy
of stages/ as the book shows it; for a first stage, its files."""
import html
import re
import shutil
import subprocess

from looplab_tools import stage as stage_tool
from looplab_tools.book.config import ROOT, rel
from looplab_tools.book.describe import describe_file, md_cell
from looplab_tools.book.sources import CPP_SUFFIXES, MARKER_LINE, MARKER_SUFFIXES, book_view, stages


def stage_sources(stage):
    """The files of a stage, relative to its folder (tools/stage's view)."""
    return sorted(stage_tool.stage_files(ROOT, stage))


def without_snippet_markers(text):
    """`text` without its `// [name]` lines: a chapter's markers are the book's
    business, not a change the chapter's diff should show."""
    return "".join(line for line in text.splitlines(keepends=True) if not MARKER_LINE.match(line))


def mirror_for_diffs(edition):
    """A copy of stages/ as the book shows it (snippet markers, solution markers
    and stubs removed), for `tools/stage --root MIRROR diff NN`: a diff must not
    show a marker either."""
    mirror = edition.out / "stage-mirror"
    shutil.rmtree(mirror, ignore_errors=True)
    for stage in stages().values():
        for name in stage_sources(stage) + [stage_tool.MANIFEST]:
            source = ROOT / stage.path / name
            target = mirror / stage.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.suffix in CPP_SUFFIXES:
                target.write_text(without_snippet_markers(book_view(source.read_text(), edition, rel(source))))
            elif source.suffix in MARKER_SUFFIXES:
                target.write_text(without_snippet_markers(source.read_text()))
            else:
                shutil.copyfile(source, target)
    return mirror


def first_stage_files(stage, edition):
    """Chapter NN of a first stage: everything is new. Its files and their sizes."""
    rows, total = [], 0
    for name in stage_sources(stage):
        path = ROOT / stage.path / name
        lines = len(book_view(path.read_text(), edition, rel(path)).splitlines()) \
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


def later_stage_diff(stage, parent, mirror, edition):
    """Chapter NN of a later stage: its diff against the parent, markers removed."""
    tool = [str(ROOT / "tools" / "stage"), "--root", str(mirror), "diff", stage.num]
    stat = subprocess.run(tool + ["--stat"], capture_output=True, text=True, check=True).stdout
    full = subprocess.run(tool, capture_output=True, text=True, check=True).stdout
    (edition.generated / f"stage_{stage.num}.diff").write_text(full)
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


def generate_diffs(edition):
    """{number: Markdown} for @STAGE_DIFF(NN)@."""
    known = stages()
    mirror = None
    fragments = {}
    for number, stage in known.items():
        parent = stage_tool.parent_of({s.folder: s for s in known.values()}, stage)
        if parent is None:
            fragments[number] = first_stage_files(stage, edition)
        else:
            mirror = mirror or mirror_for_diffs(edition)
            fragments[number] = later_stage_diff(stage, parent, mirror, edition)
        (edition.generated / f"stage_diff_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments
