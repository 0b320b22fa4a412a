#!/usr/bin/env python3
"""tools/stage: keep looplab's per-stage copies of the code consistent.

Every chapter of the course is a complete copy of the code in stages/NN_name/,
described by a manifest stages/NN_name/stage.toml:

    title   = "The callback queue"
    parent  = "01_callback_queue"   # "" for the first stage
    changed = ["src/loop.cpp"]      # files this chapter adds or modifies
    removed = []                    # optional: parent files this chapter deletes

Every other file must be byte-identical to the parent's copy. This tool checks
that rule, shows a chapter's diff, carries edits forward into later stages
(propagate) and exports one stage as a standalone project.

A stage's assignment material lives beside its code, in stages/NN_name/assignment/
(never copied into later stages, never exported). Its regions.toml names the
regions a student of chapter NN writes:

    [regions.call_soon_body]
    file = "src/event_loop.cpp"   # where the region is, in this stage
    stub = '''
    // TODO(chapter 1): ...
    throw RuntimeError("call_soon() is not implemented yet");
    '''

The region is the code between two `// [call_soon_body]` lines: snippet markers
like the book's, so the reference code carries no assignment text. `check` proves
every region is still there, once, in every stage that declares it.
"""
import argparse
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

DEFAULT_ROOT = Path(__file__).resolve().parents[2]
MANIFEST = "stage.toml"
ASSIGNMENT = "assignment"          # a stage's assignment folder: its own, never inherited
REGIONS = "assignment/regions.toml"
MARKER_LINE = re.compile(r"^(\s*)(?://|#)\s*\[([A-Za-z0-9_.:-]+)\]\s*$")
# Text of the old in-source assignment markers, which the reference code must not carry.
ASSIGNMENT_TEXT = re.compile(r"(BEGIN|END) (SOLUTION|STUB)|TODO\(chapter")
DROPPINGS = {"__pycache__", ".DS_Store"}
FEATURES = "features.toml"  # the feature table, which CMake reads too
TOP_LEVEL_FILES = ["CMakeLists.txt", "CMakePresets.json", "Makefile", "README.md", FEATURES,
                   ".clang-format", ".clang-tidy", ".gitignore"]
SHARED_DIRS = ["cmake", "common", "tools"]
GROUPED_DIRS = ["tests", "bench", "comparisons", "examples"]
GROUP_DIRS = ["tests/{g}", "tests/scenarios/{g}", "bench/{g}", "examples/{g}",
              "comparisons/scenarios/{g}", "comparisons/asyncio/{g}"]


class StageError(Exception):
    """A problem that makes the command fail (exit 1)."""


class UsageError(StageError):
    """The command line was wrong (exit 2)."""


@dataclass
class Stage:
    folder: str        # "02_timers"
    number: int        # 2
    title: str
    parent: str        # parent folder name, "" for the first stage
    changed: list
    removed: list

    @property
    def num(self):
        """The number as written in the folder name ("02")."""
        return self.folder.split("_", 1)[0]

    @property
    def path(self):
        return f"stages/{self.folder}"


# ---------------------------------------------------------------- files ----

def is_dropping(name):
    """Editor/build leftovers that never count as stage files."""
    return name in DROPPINGS or name.endswith((".pyc", "~"))


def walk(top, skip=()):
    """Relative posix paths of all files under `top` (sorted, droppings left out)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if not is_dropping(d) and d not in skip]
        for name in filenames:
            if not is_dropping(name):
                found.append((Path(dirpath) / name).relative_to(top).as_posix())
    return sorted(found)


def stage_files(root, stage):
    """The files of a stage on disk, relative to its folder: its code, without
    the manifest and the assignment folder."""
    return {f for f in walk(root / stage.path) if f != MANIFEST and not f.startswith(ASSIGNMENT + "/")}


def read_bytes(path):
    """File contents, or None if there is no such file."""
    return path.read_bytes() if path.is_file() else None


def blob_id(data):
    """The id git gives to a blob with this content (None for a missing file)."""
    if data is None:
        return None
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def git(root, *args):
    """Run git in `root` and return its stdout; raise StageError if it fails."""
    res = subprocess.run(["git", "-C", str(root), *args], capture_output=True)
    if res.returncode != 0:
        raise StageError(f"git {' '.join(args)} failed: {res.stderr.decode().strip()}")
    return res.stdout


# --------------------------------------------------------------- stages ----

def read_manifest(folder, number):
    """Parse and validate stages/<folder>/stage.toml."""
    with open(folder / MANIFEST, "rb") as f:
        data = tomllib.load(f)
    for key in ("title", "parent"):
        if not isinstance(data.get(key, ""), str):
            raise ValueError(f"'{key}' must be a string")
    for key in ("changed", "removed"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise ValueError(f"'{key}' must be a list of paths")
    return Stage(folder.name, number, data.get("title", ""), data.get("parent", ""),
                 list(data.get("changed", [])), list(data.get("removed", [])))


def load_stages(root, strict=True):
    """All stages in number order as {folder: Stage}, plus manifest problems.

    With strict=True a broken manifest raises StageError instead."""
    if not (root / "stages").is_dir():
        raise StageError(f"no stages/ folder in {root}")
    stages, problems = {}, []
    for folder in sorted((root / "stages").iterdir()):
        m = re.match(r"(\d+)_", folder.name)
        if not m or not folder.is_dir():
            continue
        try:
            stages[folder.name] = read_manifest(folder, int(m.group(1)))
        except FileNotFoundError:
            problems.append(f"stages/{folder.name}: no {MANIFEST}")
        except (OSError, ValueError) as e:  # TOMLDecodeError is a ValueError
            problems.append(f"stages/{folder.name}/{MANIFEST}: {e}")
    if strict and problems:
        raise StageError("\n".join(problems))
    ordered = sorted(stages.values(), key=lambda s: (s.number, s.folder))
    return {s.folder: s for s in ordered}, problems


def find_stage(stages, key):
    """Look a stage up by "03", "3" or its folder name."""
    if key in stages:
        return stages[key]
    hits = [s for s in stages.values() if key.isdigit() and s.number == int(key)]
    if len(hits) != 1:
        raise UsageError(f"no stage '{key}' (try `tools/stage list`)" if not hits
                         else f"stage number '{key}' is ambiguous")
    return hits[0]


def parent_of(stages, stage):
    """The parent Stage, or None for a first stage."""
    if not stage.parent:
        return None
    if stage.parent not in stages:
        raise StageError(f"{stage.path}/{MANIFEST}: parent '{stage.parent}' does not exist")
    return stages[stage.parent]


# -------------------------------------------------------------- regions ----

@dataclass
class Region:
    """A region of code that chapter `chapter`'s student writes."""
    name: str
    stage: Stage       # the stage whose assignment declares it
    file: str          # relative to the stage folder
    stub: str          # what the region becomes in the starter (dedented)

    @property
    def chapter(self):
        return self.stage.number


def load_regions(root, stages=None):
    """{name: Region} over every stage's assignment/regions.toml."""
    stages = stages if stages is not None else load_stages(root)[0]
    regions = {}
    for stage in stages.values():
        path = root / stage.path / REGIONS
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text())
        except ValueError as e:
            raise StageError(f"{stage.path}/{REGIONS}: {e}") from None
        for name, entry in data.get("regions", {}).items():
            if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) \
                    or not isinstance(entry.get("stub"), str):
                raise StageError(f"{stage.path}/{REGIONS}: [regions.{name}] needs a file and a stub")
            if name in regions:
                raise StageError(f"{stage.path}/{REGIONS}: region {name} is also declared by "
                                 f"{regions[name].stage.path}/{REGIONS}: names are unique")
            regions[name] = Region(name, stage, entry["file"], entry["stub"].lstrip("\n"))
    return regions


def region_spans(text, regions):
    """[(region, first, last)] of the known regions in `text`: the line indexes of
    its two marker lines. Raises StageError if a region's markers do not pair."""
    lines, spans, open_at = text.splitlines(), [], {}
    for i, line in enumerate(lines):
        match = MARKER_LINE.match(line)
        if not match or match.group(2) not in regions:
            continue
        name = match.group(2)
        if name in open_at:
            spans.append((regions[name], open_at.pop(name), i))
        elif any(name == region.name for region, _, _ in spans):
            raise StageError(f"region {name} is marked more than once")
        else:
            open_at[name] = i
    if open_at:
        raise StageError(f"region {', '.join(open_at)} has one marker line, not two")
    return sorted(spans, key=lambda span: span[1])


def replace_regions(text, regions, replace):
    """`text` with each known region's lines (markers included) replaced by
    replace(region, indent, marker_lines, body_lines) -> list of lines."""
    lines = text.splitlines(keepends=True)
    out, at = [], 0
    for region, first, last in region_spans(text, regions):
        out += lines[at:first]
        indent = MARKER_LINE.match(lines[first]).group(1)
        out += replace(region, indent, (lines[first], lines[last]), lines[first + 1:last])
        at = last + 1
    return "".join(out + lines[at:])


def indented(stub, indent):
    """The stub's lines, indented as the region's markers are."""
    return [f"{indent}{line}\n" if line.strip() else "\n" for line in stub.splitlines()]


def check_regions(root, stages):
    """Every declared region is in its file, marked once; no stage source carries
    the text of in-source assignment markers."""
    problems = []
    try:
        regions = load_regions(root, stages)
    except StageError as e:
        return [str(e)]
    for region in regions.values():
        path = root / region.stage.path / region.file
        where = f"{region.stage.path}/{REGIONS}: [regions.{region.name}]"
        if not path.is_file():
            problems.append(f"{where}: no file {region.stage.path}/{region.file}")
            continue
        try:
            spans = region_spans(path.read_text(), {region.name: region})
        except StageError as e:
            problems.append(f"{region.stage.path}/{region.file}: {e}")
            continue
        if not spans:
            problems.append(f"{where}: {region.stage.path}/{region.file} has no `// [{region.name}]` "
                            "marker lines: the stub no longer applies")
        if not region.stub.strip():
            problems.append(f"{where}: the stub is empty")
    for stage in stages.values():
        for rel in sorted(stage_files(root, stage)):
            path = root / stage.path / rel
            if path.suffix not in (".cpp", ".hpp", ".h", ".cc"):
                continue
            text = path.read_text(errors="replace")
            for number, line in enumerate(text.splitlines(), start=1):
                if ASSIGNMENT_TEXT.search(line):
                    problems.append(f"{stage.path}/{rel}:{number}: assignment text in the reference "
                                    f"code ({line.strip()}): stubs live in {stage.path}/{REGIONS}")
            try:
                region_spans(text, regions)
            except StageError as e:
                problems.append(f"{stage.path}/{rel}: {e}")
    return problems


# ---------------------------------------------------------------- check ----

# What `propagate` writes where a three-way merge fails (git merge-file).
CONFLICT_MARKER = re.compile(rb"^(<<<<<<<|>>>>>>>) ", re.MULTILINE)


def check_stage(root, stages, stage):
    """Return the list of rule violations of one stage."""
    toml = f"{stage.path}/{MANIFEST}"
    problems = []

    def bad(path, msg):
        problems.append(f"{stage.path}/{path}: {msg}")

    files, changed, removed = stage_files(root, stage), set(stage.changed), set(stage.removed)
    for p in sorted(files):
        text = read_bytes(root / stage.path / p) or b""
        if CONFLICT_MARKER.search(text):
            bad(p, "holds conflict markers (a propagate that could not merge): resolve them")
    for p in sorted(changed - files):
        bad(p, f"declared as changed but missing: remove it from changed in {toml}")
    if not stage.parent:
        return problems
    parent = stages.get(stage.parent)
    if parent is None:
        return problems + [f"{toml}: parent '{stage.parent}' does not exist"]
    if parent.number >= stage.number:
        problems.append(f"{toml}: parent {parent.folder} must have a lower number")
    pfiles = stage_files(root, parent)
    fix_parent = f"run `tools/stage propagate {parent.num}` if you edited {parent.folder}"
    for p in sorted(files | pfiles):
        mine = read_bytes(root / stage.path / p)
        theirs = read_bytes(root / parent.path / p)
        if p in changed:
            if mine is not None and mine == theirs:
                bad(p, f"declared as changed but identical to the parent: "
                       f"remove it from changed in {toml}")
        elif mine is None:
            if p not in removed:
                bad(p, f"missing (the parent has it): add it to removed in {toml}, or {fix_parent}")
        elif theirs is None:
            bad(p, f"not in the parent and not declared: add it to changed in {toml}, "
                   f"or {fix_parent}")
        elif mine != theirs:
            bad(p, f"differs from {parent.path}/{p} but is not declared changed: "
                   f"add it to changed in {toml}, or {fix_parent}")
    for p in sorted(removed):
        if p in files:
            bad(p, f"declared as removed but present: remove it from removed in {toml}")
        elif p not in pfiles:
            bad(p, f"declared as removed but the parent has no such file: "
                   f"remove it from removed in {toml}")
    return problems


def cmd_check(root, args):
    stages, problems = load_stages(root, strict=False)
    numbers = {}
    for s in stages.values():
        numbers.setdefault(s.number, []).append(s.folder)
        problems += check_stage(root, stages, s)
    problems += [f"stages/: number {n:02d} is used by {', '.join(f)}"
                 for n, f in numbers.items() if len(f) > 1]
    problems += check_regions(root, stages)
    for p in problems:
        print(p)
    if problems:
        print(f"stage check: {len(problems)} problem(s)")
        return 1
    print(f"stage check: {len(stages)} stages consistent")
    return 0


def cmd_list(root, args):
    stages, _ = load_stages(root)
    for s in stages.values():
        print(f"{s.num:>3}  {s.folder:<28} parent: {s.parent or '-':<28} "
              f"\"{s.title}\"  ({len(s.changed)} changed)")
    return 0


# ----------------------------------------------------------------- diff ----

def file_diff(old, new, a_name, b_name):
    """Unified diff text of two versions (None = absent) and its +/- counts."""
    a_label = f"a/{a_name}" if old is not None else "/dev/null"
    b_label = f"b/{b_name}" if new is not None else "/dev/null"
    head = f"diff --git a/{a_name} b/{b_name}\n"
    head += "new file\n" if old is None else "deleted file\n" if new is None else ""
    try:
        a = (old or b"").decode().splitlines(keepends=True)
        b = (new or b"").decode().splitlines(keepends=True)
    except UnicodeDecodeError:
        return head + f"Binary files {a_label} and {b_label} differ\n", 0, 0
    out = []
    for line in difflib.unified_diff(a, b, a_label, b_label):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    plus = sum(1 for line in out[2:] if line.startswith("+"))
    minus = sum(1 for line in out[2:] if line.startswith("-"))
    return head + "".join(out), plus, minus


def cmd_diff(root, args):
    stages, _ = load_stages(root)
    stage = find_stage(stages, args.stage)
    parent = parent_of(stages, stage)
    pfiles = stage_files(root, parent) if parent else set()
    pname = parent.folder if parent else "(none)"
    stats = []
    for p in sorted(stage_files(root, stage) | pfiles):
        old = read_bytes(root / parent.path / p) if parent else None
        new = read_bytes(root / stage.path / p)
        if old != new:
            text, plus, minus = file_diff(old, new, f"{pname}/{p}", f"{stage.folder}/{p}")
            stats.append((p, plus, minus))
            if not args.stat:
                print(text, end="")
    if args.stat:
        width = max((len(p) for p, _, _ in stats), default=0)
        for p, plus, minus in stats:
            print(f" {p:<{width}} | +{plus} -{minus}")
        print(f" {len(stats)} file(s) changed, {sum(s[1] for s in stats)} insertion(s)(+), "
              f"{sum(s[2] for s in stats)} deletion(s)(-)")
    return 0


# ------------------------------------------------------------ propagate ----

class Head:
    """The committed (HEAD) versions of the files under stages/."""

    def __init__(self, root):
        self.root, self.blobs = root, {}
        for entry in git(root, "ls-tree", "-r", "-z", "HEAD", "--", "stages").split(b"\0"):
            if entry:
                meta, path = entry.split(b"\t", 1)
                self.blobs[path.decode()] = meta.split()[2].decode()

    def files(self, stage):
        prefix = stage.path + "/"
        return {p[len(prefix):] for p in self.blobs
                if p.startswith(prefix) and p != prefix + MANIFEST
                and not p.startswith(prefix + ASSIGNMENT + "/")}

    def read(self, rel):
        blob = self.blobs.get(rel)
        return None if blob is None else git(self.root, "cat-file", "blob", blob)


class WorkTree:
    """The working tree as propagate sees it: the disk plus what it wrote so far.

    With dry_run, writes are only remembered, so later stages see them anyway."""

    def __init__(self, root, dry_run):
        self.root, self.dry_run, self.written = root, dry_run, {}

    def read(self, rel):
        return self.written[rel] if rel in self.written else read_bytes(self.root / rel)

    def files(self, stage):
        found = stage_files(self.root, stage)
        prefix = stage.path + "/"
        for rel, data in self.written.items():
            if rel.startswith(prefix):
                (found.add if data is not None else found.discard)(rel[len(prefix):])
        return found

    def write(self, rel, data):
        self.written[rel] = data
        if self.dry_run:
            return
        path = self.root / rel
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def merge3(mine, base, theirs, labels):
    """`git merge-file -p`: return (merged bytes, number of conflicts)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, data in zip(("mine", "base", "theirs"), (mine, base, theirs)):
            paths.append(Path(tmp) / name)
            paths[-1].write_bytes(data or b"")
        label_args = [arg for label in labels for arg in ("-L", label)]
        res = subprocess.run(["git", "merge-file", "-p", *label_args, *map(str, paths)],
                             capture_output=True)
    if res.returncode >= 128 or res.returncode < 0:
        raise StageError(f"git merge-file failed on {labels[0]}: {res.stderr.decode().strip()}")
    return res.stdout, res.returncode


def carry_into(stage, parent, head, tree, say):
    """Apply the parent's uncommitted changes to `stage`; return the problems met."""
    problems = []
    for f in sorted(head.files(parent) | tree.files(parent)):
        src, dst = f"{parent.path}/{f}", f"{stage.path}/{f}"
        new = tree.read(src)
        if blob_id(new) == head.blobs.get(src) or f in stage.removed:
            continue
        old, cur = head.read(src), tree.read(dst)
        if f in stage.changed:
            if new is None:
                say("keep", dst, f"{parent.folder} deleted it; it is declared changed here")
                continue
            merged, conflicts = merge3(cur, old, new, [dst, f"{src} (HEAD)", src])
            if merged != cur:
                tree.write(dst, merged)
                say("CONFLICT" if conflicts else "merge", dst, f"3-way merge with {src}")
            if conflicts:
                problems.append(f"{dst}: conflict: resolve the conflict markers, then run "
                                f"`tools/stage propagate {stage.num}` to continue")
        elif cur == new:
            continue  # already carried forward
        elif cur != old:
            problems.append(f"{dst}: not updated: it is inherited but already differed from "
                            f"{src}; fix it (see `tools/stage check`), then run "
                            f"`tools/stage propagate {parent.num}` again")
        else:
            tree.write(dst, new)
            say("delete" if new is None else "create" if cur is None else "copy", dst,
                f"from {src}")
    return problems


def propagate(root, start, dry_run=False, out=print):
    """Carry the uncommitted changes of stage `start` (and of the stages it
    reaches) through all its descendant stages. Return the problems met."""
    stages, _ = load_stages(root)
    start = find_stage(stages, start)
    head, tree = Head(root), WorkTree(root, dry_run)
    prefix = "would " if dry_run else ""

    def say(action, path, why):
        out(f"  {prefix}{action:<8} {path}  ({why})")

    reached, blocked, problems = {start.folder}, set(), []
    for stage in stages.values():
        if stage.parent not in reached:
            continue
        reached.add(stage.folder)
        if stage.parent in blocked:
            blocked.add(stage.folder)  # wait until the parent's problems are fixed
            continue
        found = carry_into(stage, stages[stage.parent], head, tree, say)
        if found:
            blocked.add(stage.folder)
            problems += found
            out(f"stopped at {stage.folder}: its descendants were not touched")
    out(f"propagate: {prefix}{'touch' if dry_run else 'touched'} {len(tree.written)} file(s)")
    return problems


def cmd_propagate(root, args):
    problems = propagate(root, args.stage, args.dry_run)
    for p in problems:
        print(p)
    return 1 if problems else 0


# --------------------------------------------------------------- export ----

def features(root):
    """[(group, since)] of the feature table, in table order."""
    path = Path(root) / FEATURES
    return list(tomllib.loads(path.read_text()).get("groups", {}).items()) if path.is_file() else []


def export_files(root, stage):
    """The repo-relative paths that make up the standalone project of `stage`."""
    later = [g for g, since in features(root) if since > stage.number]
    excluded = [d.format(g=g) + "/" for g in later for d in GROUP_DIRS]
    files = [f for f in TOP_LEVEL_FILES if (root / f).is_file()]
    for top in SHARED_DIRS + GROUPED_DIRS:
        files += [f"{top}/{p}" for p in walk(root / top, skip={".git", "build"})]
    files += [f"{stage.path}/{p}" for p in sorted(stage_files(root, stage) | {MANIFEST})]
    # An extension lab's CPython twins (comparisons/scenarios/labNN/) go with their stage only.
    own_lab_twins = f"comparisons/scenarios/lab{stage.num}/"
    return [f for f in files if not f.startswith(tuple(excluded))
            and (not f.startswith("comparisons/scenarios/lab") or f.startswith(own_lab_twins))]


def export_stage(root, stage, dest):
    """Write stage `stage` (a Stage, number or folder) of the repo at `root` into
    `dest` as a standalone project. Return the list of files written.

    In the copy, the stage becomes a first stage (parent = ""), so that
    `tools/stage check` passes there; its changed list is kept as information."""
    root, dest = Path(root), Path(dest)
    if not isinstance(stage, Stage):
        stage = find_stage(load_stages(root)[0], str(stage))
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UsageError(f"{dest} exists and is not an empty folder")
    files = export_files(root, stage)  # list first: dest may be inside root
    for rel in files:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, dest / rel)
    if FEATURES in files:  # the later chapters' groups leave the table
        later = {g for g, since in features(root) if since > stage.number}
        lines = (root / FEATURES).read_text().splitlines(keepends=True)
        kept = [line for line in lines if line.split("=")[0].strip() not in later]
        (dest / FEATURES).write_text("".join(kept))
    toml = dest / stage.path / MANIFEST
    if stage.parent:
        note = f'parent = ""  # exported; was "{stage.parent}"'
        toml.write_text(re.sub(r'^parent\s*=.*$', note, toml.read_text(), count=1, flags=re.M))
    return files


def cmd_export(root, args):
    stages, _ = load_stages(root)
    stage = find_stage(stages, args.stage)
    files = export_stage(root, stage, args.dir)
    print(f"exported {stage.folder} ({len(files)} files) to {args.dir}")
    print(f"build it with: cd {args.dir} && cmake --preset dev && "
          f"cmake --build --preset dev && ctest --preset dev")
    return 0


# ------------------------------------------------------------------ cli ----

def make_parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", default=argparse.SUPPRESS,
                        help="repository root (default: the folder above tools/)")
    parser = argparse.ArgumentParser(prog="tools/stage", parents=[common],
                                     description=__doc__.split("\n\n")[0],
                                     epilog="Run `tools/stage COMMAND --help` for details.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, func, help_text):
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    command("list", cmd_list, "list the stages: number, folder, parent, title, #changed")
    command("check", cmd_check, "check that every stage only differs from its parent "
            "in the files its stage.toml declares")
    p = command("diff", cmd_diff, "show a chapter's diff against its parent stage")
    p.add_argument("stage", help='stage number ("03", "3") or folder name')
    p.add_argument("--stat", action="store_true", help="only print a per-file summary")
    p = command("propagate", cmd_propagate,
                "carry the uncommitted edits (working tree vs HEAD) of a stage forward "
                "into every later stage; declared-changed files get a 3-way merge")
    p.add_argument("stage", help='stage number ("03", "3") or folder name')
    p.add_argument("--dry-run", action="store_true", help="only print what would be done")
    p = command("export", cmd_export, "write one stage as a standalone project into DIR")
    p.add_argument("stage", help='stage number ("03", "3") or folder name')
    p.add_argument("dir", metavar="DIR", help="target folder (must not exist or be empty)")
    return parser


def main(argv=None):
    parser = make_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    root = Path(getattr(args, "root", None) or DEFAULT_ROOT).resolve()
    try:
        return args.func(root, args)
    except UsageError as e:
        print(f"tools/stage: {e}", file=sys.stderr)
        return 2
    except StageError as e:
        print(f"tools/stage: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
