#!/usr/bin/env python3
"""tools/assignment: turn a stage into a course assignment, and grade it.

The regions a chapter's student writes are declared beside the stage, in
stages/NN_name/assignment/regions.toml (see tools/stage): each is the code
between two `// [name]` marker lines of a stage source, and its stub is what the
starter holds there instead. The reference code carries no assignment text.

Commands:
  make NN OUT       write the starter project of stage NN into OUT: the stage
                    with chapter NN's regions replaced by their stubs (earlier
                    chapters' code stays as the reference), common/, the public
                    tests of stages 01..NN, the handout, and a grader
  grade             (run inside a starter: `make grade [HIDDEN=dir]`) copy the
                    files a student may edit onto a trusted tree, add the
                    instructor's hidden tests, build with ASan+UBSan, run the
                    tests under a timeout, print a score per group, write
                    Gradescope's results.json
  check NN          what `make test` asks of every assignment: the reference gets
                    full marks, with the example hidden tests too; the starter
                    builds, passes the earlier stages' tests, fails some of its
                    new ones, gets partial marks, and holds no line of a solution
  filter FILE       print FILE as the book shows it (Doxygen's input filter):
                    --edition reader drops the region markers, --edition course
                    shows each region as the student's task instead
"""
import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from looplab_tools import stage as stage_tool

ROOT = Path(__file__).resolve().parents[2]
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}
TODO = re.compile(r"TODO\(chapter (\d+)\):")
STUDENT_TASK = "You write this"  # how the course edition opens a student's task
HIDDEN_EXAMPLE = "assignment/hidden"   # a stage's example set of hidden tests
LAB = "assignment/lab"   # a stage's extension lab: its reference, tests and lab.toml
STARTER_LAB = "lab"     # where the starter holds it, stubbed, in the stage's folder

# How much each group of tests weighs in the score (pintos-style split). Weights
# are shared among the groups that have tests.
WEIGHTS = {"new feature": 60, "earlier stages": 25, "parity with CPython": 15, "extension lab": 30,
           "hidden": 25}
# How CTest selects each group, the one source of the groups: group_of() sorts
# by these labels, and every handout quotes them (tools/book checks it).
GROUP_SELECTION = {
    "new feature": "CTest label `since{nn}`, not `scenario`",
    "earlier stages": "CTest label `stage{nn}`, neither `since{nn}` nor `scenario`",
    "parity with CPython": "CTest label `scenario` (the C++ side; `cpython` checks the twin)",
    "extension lab": "CTest label `lab` (the tests in `lab/tests/` of the stage)",
    "hidden": "CTest label `hidden`",
}
# Gradescope shows hidden tests to the student only once the grades are published.
VISIBILITY = {"hidden": "after_published"}
TEST_TIMEOUT_SECONDS = 60
# UBSan's checks the grader's build leaves out (see grade()).
GRADER_SANITIZE_SKIP = "null,alignment,vptr,pointer-overflow"
# Tests the grader neither runs nor scores: the Python twins' own checks
# against CPython, the tools' unit tests, and what make test runs on the
# newest stage beyond its chapter (the example HTTP server and its fuzzer,
# the fault-injection builds).
UNGRADED_LABELS = {"cpython", "tools", "http", "fuzz", "faults"}
NOT_BUILT = "_NOT_BUILT"
# A stubbed starter, graded from scratch on two cores, must finish within
# this, well inside a grading platform's time limit (on
# this project's 2-core CI machine: assignment 04 in about 100 s, the
# largest, 06, in about 225 s).
STARTER_GRADING_LIMIT_SECONDS = 480


class AssignmentError(Exception):
    """Something is wrong with the regions, the stage or the build setup."""


def regions(root=ROOT):
    try:
        return stage_tool.load_regions(root)
    except stage_tool.StageError as error:
        raise AssignmentError(str(error)) from None


def lab_of(stage, root=ROOT):
    """(lab.toml's table, {name: Region}) of the stage's extension lab, or
    (None, {}) if it has none. A lab region's file is given relative to the
    lab's folder; its Region names it from the stage's folder."""
    path = root / stage.path / LAB / "lab.toml"
    if not path.is_file():
        return None, {}
    try:
        data = tomllib.loads(path.read_text())
    except ValueError as error:
        raise AssignmentError(f"{stage.path}/{LAB}/lab.toml: {error}") from None
    for key in ("title", "hours"):
        if not isinstance(data.get(key), str):
            raise AssignmentError(f"{stage.path}/{LAB}/lab.toml: needs a {key}")
    known = {}
    for name, entry in data.get("regions", {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) \
                or not isinstance(entry.get("stub"), str):
            raise AssignmentError(f"{stage.path}/{LAB}/lab.toml: [regions.{name}] needs a file and a stub")
        known[name] = stage_tool.Region(name, stage, f"{LAB}/{entry['file']}", entry["stub"].lstrip("\n"))
    return data, known


# --------------------------------------------------------------- regions ----

def starter_text(text, known, chapter, name="<text>"):
    """`text` with chapter `chapter`'s regions replaced by their stubs (the
    marker lines stay, so the student finds the place)."""
    mine = {n: r for n, r in known.items() if r.chapter == chapter}
    try:
        return stage_tool.replace_regions(
            text, mine, lambda r, indent, markers, body: [markers[0], *stage_tool.indented(r.stub, indent),
                                                          markers[1]])
    except stage_tool.StageError as error:
        raise AssignmentError(f"{name}: {error}") from None


def course_stub(region):
    """A region as the course edition shows it: the student's task."""
    return TODO.sub(lambda m: f"{STUDENT_TASK} (assignment {int(m.group(1)):02d}):", region.stub)


def book_text(text, known, edition, name="<text>"):
    """`text` as the book shows it. Both editions drop the regions' marker lines;
    the course edition shows each region's stub in place of its code."""
    def replace(region, indent, markers, body):
        return stage_tool.indented(course_stub(region), indent) if edition == "course" else body
    try:
        return stage_tool.replace_regions(text, known, replace)
    except stage_tool.StageError as error:
        raise AssignmentError(f"{name}: {error}") from None


TRIVIAL_LINE = re.compile(r"^(?:return(?: \w+)?|continue|break|throw|try|else|\}[^{]*)\W*$")


def solution_lines(region):
    """The lines of a region that give it away: longer than a brace or a
    `return false;`, and found nowhere else in its stage's sources nor in the
    region's own stub."""
    path = ROOT / region.stage.path / region.file
    lines = path.read_text().splitlines()
    [(_, first, last)] = stage_tool.region_spans(path.read_text(), {region.name: region})
    elsewhere = {line.strip() for line in lines[:first] + lines[last + 1:]}
    elsewhere |= {line.strip() for line in region.stub.splitlines()}
    for name in stage_tool.stage_files(ROOT, region.stage):
        other = ROOT / region.stage.path / name
        if other != path and other.suffix in SOURCE_SUFFIXES:
            elsewhere |= {line.strip() for line in other.read_text(errors="replace").splitlines()}
    body = {line.strip() for line in lines[first + 1:last]}
    return sorted(line for line in body - elsewhere if len(line) >= 12 and not TRIVIAL_LINE.match(line))


# --------------------------------------------------------------- starter ----

def find_stage(key):
    stages, _ = stage_tool.load_stages(ROOT)
    return stage_tool, stage_tool.find_stage(stages, str(key))


def editable_files(tree, stage):
    """What a student may change: the stage's library sources and headers."""
    base = tree / stage.path
    folders = [base / "src", base / "include", base / STARTER_LAB / "src", base / STARTER_LAB / "include"]
    return sorted(str(p.relative_to(tree)) for folder in folders for p in folder.rglob("*")
                  if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def make_starter(key, out, lab=True):
    tool, stage = find_stage(key)
    out = Path(out)
    tool.export_stage(ROOT, stage, out)
    # The book's tool is no part of an assignment; the starter has no book to build.
    (out / "tools" / "book").unlink(missing_ok=True)
    shutil.rmtree(out / "tools" / "looplab_tools" / "book", ignore_errors=True)
    (out / "tools" / "looplab_tools" / "book.py").unlink(missing_ok=True)
    known = regions()
    files = sorted({r.file for r in known.values() if r.chapter == stage.number})
    if not files:
        raise AssignmentError(f"stage {stage.num} declares no region in {stage.path}/{stage_tool.REGIONS}")
    stubbed = []
    for file in files:
        path = out / stage.path / file
        path.write_text(starter_text(path.read_text(), known, stage.number, name=str(path)))
        stubbed.append(f"{stage.path}/{file}")
    lab, lab_stubbed = copy_lab(stage, out / stage.path / STARTER_LAB) if lab else (None, [])
    stubbed += [f"{stage.path}/{STARTER_LAB}/{file}" for file in lab_stubbed]

    editable = editable_files(out, stage)
    grading = out / "grading"
    grading.mkdir()
    (grading / "assignment.toml").write_text(
        f'stage = {stage.number}\nfolder = "{stage.folder}"\ntitle = "{stage.title}"\n'
        + (f'lab = "{lab["title"]}"\n' if lab else "") +
        "editable = [\n" + "".join(f'  "{f}",\n' for f in editable) + "]\n"
        "stubbed = [\n" + "".join(f'  "{f}",\n' for f in stubbed) + "]\n")
    (out / "Makefile").write_text(STARTER_MAKEFILE.format(nn=stage.num))
    (out / "README.md").write_text(handout(stage, stubbed, with_lab=lab is not None))
    # The trusted tree: the starter as handed out. The grader rebuilds from it,
    # so edits to tests, CMake files or the grader itself change nothing.
    with tarfile.open(grading / "trusted.tar.gz", "w:gz") as tar:
        for path in sorted(out.rglob("*")):
            rel = path.relative_to(out)
            if path.is_file() and rel.parts[0] != "grading" and "build" not in rel.parts:
                tar.add(path, arcname=str(rel))
    return stage, stubbed


def copy_lab(stage, target):
    """The stage's extension lab, if any, into `target` (the starter's
    stages/NN_*/lab/), each region replaced by its stub; lab.toml stays behind.
    Returns (lab.toml's table or None, [stubbed files, relative to target])."""
    lab, known = lab_of(stage)
    if lab is None:
        return None, []
    source = ROOT / stage.path / LAB
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("lab.toml"))
    files = sorted({region.file.removeprefix(f"{LAB}/") for region in known.values()})
    for file in files:
        path = target / file
        path.write_text(starter_text(path.read_text(), known, stage.number, name=str(path)))
    return lab, files


STARTER_MAKEFILE = """\
# Assignment {nn}. `make test` builds what the tests need and runs this stage's
# tests on every core; `make grade` scores them as the grader will (HIDDEN=dir
# adds an instructor's hidden tests).
.PHONY: test grade clean
NPROC := $(shell nproc)
test:
\tcmake --preset dev -DLOOPLAB_BUILD_BENCH=OFF
\tcmake --build --preset dev
\tctest --preset dev -L stage{nn} -LE cpython --parallel $(NPROC)
grade:
\tsh tools/assignment grade $(if $(HIDDEN),--hidden $(HIDDEN))
clean:
\trm -rf build
"""


def handout(stage, stubbed, with_lab=True):
    chapter_page = ROOT / "book" / "assignments" / f"{stage.num}.md"
    body = chapter_page.read_text() if chapter_page.is_file() else ""
    body = re.sub(r"\s*\{#[\w-]+\}", "", body)  # Doxygen page anchors
    if not with_lab:  # a starter without its lab: no Part 2, no row for it
        body = re.sub(r"^## Part 2\b.*?(?=^## |\Z)", "", body, flags=re.S | re.M)
        body = re.sub(r"^\| extension lab \|.*\n", "", body, flags=re.M)
    files = "".join(f"- `{f}`\n" for f in stubbed)
    groups = [g for g, since in stage_tool.features(ROOT) if since == stage.number]
    targets = " ".join(f"tests_s{stage.num}_{g}" for g in groups if (ROOT / "tests" / g).is_dir()
                       and any((ROOT / "tests" / g).glob("*_test.cpp")))
    narrow = (f"cmake --build --preset dev --target {targets}   # only this chapter's tests\n"
              if targets else "")
    return (f"{body.strip()}\n\n## Working on it\n\n"
            f"The places to fill in are marked `TODO(chapter {stage.number})`, in:\n\n{files}\n"
            "```sh\nmake test     # build the tests (no benchmarks) with ASan+UBSan and run this\n"
            "              # stage's tests on every core\n"
            f"{narrow}"
            "make grade    # the score the grader will give\n```\n\n"
            "You may change any file under `src/` and `include/` of the stage; the grader\n"
            "takes only those from your tree and builds them with its own copy of the\n"
            "tests, so changing a test changes nothing. The tests of earlier chapters run\n"
            "too: the code of earlier chapters is complete and must keep working.\n\n"
            f"Chapter {stage.number} of the looplab book explains everything but the code you\n"
            "write: read it in the book's course edition, which your instructor publishes\n"
            "(`make book EDITION=course` in the looplab repository builds it); it shows\n"
            "each place you fill in as your task, not as its answer.\n")


# ---------------------------------------------------------------- grader ----

def run(command, cwd, log, timeout=None):
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=timeout)
    log.write(result.stdout)
    return result.returncode


def prepare_tree(trusted, submission, work, config, hidden=None):
    """The trusted tree with the student's editable files on top of it, and the
    hidden tests in tests/hidden. An existing work tree is reused, so regrading
    rebuilds only what changed."""
    tree = work / "tree"
    if not tree.is_dir():
        tree.mkdir(parents=True)
        if trusted.is_dir():
            shutil.copytree(trusted, tree, dirs_exist_ok=True, ignore=shutil.ignore_patterns("build", "grading"))
        else:
            with tarfile.open(trusted) as tar:
                tar.extractall(tree, filter="data")
    for rel in config["editable"]:
        source, target = submission / rel, tree / rel
        if source.is_file() and (not target.is_file() or source.read_bytes() != target.read_bytes()):
            shutil.copyfile(source, target)  # copyfile, not copy2: a new mtime makes ninja rebuild it
    shutil.rmtree(tree / "tests" / "hidden", ignore_errors=True)
    if hidden is not None:
        hidden = Path(hidden)
        tests = sorted(hidden.glob("*_test.cpp")) if hidden.is_dir() else []
        if not tests:
            raise AssignmentError(f"{hidden}: no hidden tests (*_test.cpp files) there")
        shutil.copytree(hidden, tree / "tests" / "hidden")
    return tree


def listed_tests(build):
    """ctest's own listing of the build's tests (--show-only=json-v1), in its order."""
    listing = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                             text=True, check=True)
    return json.loads(listing.stdout)["tests"]


def test_labels(tests):
    """{test: labels} of a listing, every test in ctest's order (its numbers,
    which grade() selects by), those without labels too."""
    labels = {}
    for test in tests:
        labels[test["name"]] = set()
        for prop in test.get("properties", []):
            if prop["name"] == "LABELS":
                labels[test["name"]] = set(prop["value"])
    return labels


def targets_running(build, tests, names):
    """["--target", ...]: the programs that run the tests `names` of the
    listing `tests`; [] (everything) if one of them names none. Grading
    builds nothing else: not the demo or the examples, which no test runs,
    and in the reference pass not the programs of tests it does not rerun
    (stage 10's regions are in headers: every test binary would recompile)."""
    # A test's programs are the build's binaries its command names (a scenario
    # runs a Python checker with --binary scenarios_sNN), each a target of
    # the same name. Before its first build, a test binary's tests are one
    # placeholder, TARGET_NOT_BUILT, with no command (CMake's GoogleTest module).
    programs = {}
    for test in tests:
        name = test["name"]
        programs[name] = {Path(arg).name for arg in test.get("command") or []
                          if Path(arg).parent == build / "bin"}
        if not test.get("command") and name.endswith(NOT_BUILT):
            programs[name] = {name.removesuffix(NOT_BUILT)}
    if not set(names) <= set(programs) or not all(programs[name] for name in names):
        return []
    needed = set().union(*(programs[name] for name in names))
    return ["--target"] + sorted(needed) if needed else []


def group_of(labels, stage_number):
    """Which scored group a test belongs to, or None if it is not scored."""
    if labels & UNGRADED_LABELS:
        return None  # checks the Python twin or the tools, not the student's code
    if "hidden" in labels:
        return "hidden"
    if "lab" in labels:
        return "extension lab"
    if "scenario" in labels:
        return "parity with CPython"
    since = next((int(label[5:]) for label in labels if label.startswith("since") and label[5:].isdigit()),
                 None)
    if since is None:
        return None
    return "new feature" if since == stage_number else "earlier stages"


def read_junit(path):
    """{test: (status, output)}, status "passed", "failed" or "skipped". A test
    skips only on what the machine lacks (io_uring refused by the kernel or a
    seccomp profile), asked of the kernel by the trusted tests, never of the
    student's code: it then counts neither for nor against the student."""
    results = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        failed = case.find("failure") is not None or case.find("error") is not None
        skipped = case.find("skipped") is not None and not failed
        output = case.findtext("system-out") or ""
        results[case.get("name")] = ("skipped" if skipped else "failed" if failed else "passed", output)
    return results


def grade(trusted, submission, work, json_path=None, quiet=False, hidden=None, only=None):
    """Grade `submission` against `trusted`, with the hidden tests of the folder
    `hidden` if given. With `only` (test names), only those tests run, and the
    others count as passed. Returns (score in %, {group: (passed, total, weight)})."""
    trusted, submission, work = Path(trusted).resolve(), Path(submission).resolve(), Path(work).resolve()
    config = read_config(trusted)
    stage_number = config["stage"]
    work.mkdir(parents=True, exist_ok=True)
    tree = prepare_tree(trusted, submission, work, config, hidden)
    build = tree / "build" / "grade"
    log = io.StringIO()
    hidden_dir = str(tree / "tests" / "hidden") if hidden is not None else ""
    # ASan+UBSan, as the starter's dev preset, with two savings that keep what a
    # student reads in a failure report (g++ 12, a test binary, measured): line
    # tables instead of full debug information (-g1; 9% of the compile time) and
    # UBSan without its four pointer checks (null, alignment, vptr,
    # pointer-overflow: another 30%; ASan reports a null dereference as SEGV).
    # The repository's own dev and newest builds keep every check.
    configure = ["cmake", "-S", str(tree), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
                 "-DCMAKE_CXX_FLAGS_DEBUG=-g1", "-DCMAKE_C_FLAGS_DEBUG=-g1",
                 "-DLOOPLAB_SANITIZE=address,undefined", f"-DLOOPLAB_SANITIZE_SKIP={GRADER_SANITIZE_SKIP}",
                 "-DLOOPLAB_BUILD_BENCH=OFF", f"-DLOOPLAB_HIDDEN_TESTS={hidden_dir}"]
    built = run(configure, tree, log) == 0
    if built:
        # Build what the graded tests run, as CMake lists them before the build.
        tests = listed_tests(build)
        graded = only if only is not None else [name for name, labels in test_labels(tests).items()
                                                if not labels & UNGRADED_LABELS]
        built = run(["cmake", "--build", str(build)] + targets_running(build, tests, graded), tree, log) == 0
    groups = {name: [] for name in WEIGHTS}
    if built:
        listed = test_labels(listed_tests(build))  # the tests the build discovered in its binaries
        junit = build / "junit.xml"
        selection = ["-LE", "|".join(sorted(UNGRADED_LABELS))]
        if only is not None:
            # ctest numbers its tests in the order it lists them, from 1; "0,0,0," runs
            # only the numbers that follow (a blank range would run them all). Not
            # with -LE, which makes ctest 3.25 skip some of the numbers given.
            numbers = [str(n) for n, name in enumerate(listed, start=1) if name in only]
            selection = ["-I", "0,0,0," + ",".join(numbers)] if numbers else ["-R", "^$"]
        run(["ctest", "--timeout", str(TEST_TIMEOUT_SECONDS), "--output-junit", str(junit),
             "--parallel", str(len(os.sched_getaffinity(0)))] + selection,
            build, io.StringIO())
        outcomes = read_junit(junit)
        for name, labels in sorted(listed.items()):
            group = group_of(labels, stage_number)
            if group is None:
                continue
            if only is not None and name not in only:
                status, output = "passed", ""  # left out on purpose, see `only`
            else:
                status, output = outcomes.get(name, ("failed", "did not run"))
            groups[group].append((name, status, output))
    score, summary, tests = score_groups(groups)
    skipped = [skip_reason(output) for _, _, status, output in tests if status == "skipped"]
    report = format_report(config, built, summary, score, log.getvalue(), skipped)
    if not quiet:
        print(report)
    if json_path:
        Path(json_path).write_text(json.dumps(gradescope(score, tests, report, built), indent=2) + "\n")
    return score, summary


def read_config(trusted):
    config = trusted / "grading" / "assignment.toml"
    if not config.is_file():
        raise AssignmentError(f"{trusted} is not a starter project (no grading/assignment.toml)")
    return tomllib.loads(config.read_text())


def score_groups(groups):
    """Weights are shared among the groups that have tests: an assignment with no
    earlier stages gives their 25% to the others. Skipped tests are left out of
    their group (worth 0 points, listed with why they skipped)."""
    counted = {g: [t for t in tests if t[1] != "skipped"] for g, tests in groups.items()}
    present = {g: tests for g, tests in counted.items() if tests}
    total_weight = sum(WEIGHTS[g] for g in present) or 1
    score, summary, scored = 0.0, {}, []
    for group, tests in present.items():
        weight = 100.0 * WEIGHTS[group] / total_weight
        passed = sum(1 for _, status, _ in tests if status == "passed")
        summary[group] = (passed, len(tests), weight)
        score += weight * passed / len(tests)
        for name, status, output in tests:
            scored.append((f"{group}: {name}", weight / len(tests), status, output))
    for group, tests in groups.items():
        scored += [(f"{group}: {name}", 0.0, status, output) for name, status, output in tests
                   if status == "skipped"]
    return score, summary, scored


def format_report(config, built, summary, score, build_log, skipped=()):
    lines = [f"Assignment {config['stage']:02d}: {config['title']}", ""]
    if not built:
        tail = "\n".join(build_log.splitlines()[-40:])
        return "\n".join(lines + ["The code did not build. The last lines of the build:", tail, "", "Score: 0/100"])
    for group in WEIGHTS:
        if group in summary:
            passed, total, weight = summary[group]
            lines.append(f"  {group:<22} {passed:>3}/{total:<3} tests passed   "
                         f"{weight * passed / total:5.1f} of {weight:.1f} points")
    if skipped:
        lines += ["", f"  {len(skipped)} test(s) skipped, not counted: {skipped[0]}"]
    lines += ["", f"Score: {score:.1f}/100"]
    return "\n".join(lines)


def skip_reason(output):
    """The message of a GoogleTest skip, from a test's output."""
    found = re.search(r"Skipped\s*\n(.+)", output)
    return found.group(1).strip() if found else "skipped"


def gradescope(score, tests, report, built):
    """Gradescope's results.json: one entry per test, and the text report."""
    return {
        "score": round(score, 2),
        "output": report,
        "tests": [{"name": name, "score": round(points if status == "passed" else 0.0, 3),
                   "max_score": round(points, 3), "status": "passed" if status == "skipped" else status,
                   "output": (f"skipped, not counted: {skip_reason(output)}\n" if status == "skipped" else "")
                   + output[-2000:],
                   "visibility": VISIBILITY.get(name.split(":", 1)[0], "visible")}
                  for name, points, status, output in tests] if built else [],
    }


# ------------------------------------------------------------ autograder ----

GRADESCOPE_KIT = ROOT / "book" / "assignments" / "gradescope"


def make_autograder(key, out, hidden=None):
    """Gradescope's autograder for assignment `key` in `out`: source/ holds
    setup.sh, run_autograder, the trusted starter and the hidden tests (the
    stage's example set unless `hidden` names a folder); out/autograder.zip
    is source/ zipped, what the instructor uploads."""
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    source = out / "source"
    stage, _ = make_starter(key, source / "starter")
    for name in ("setup.sh", "run_autograder"):
        shutil.copy2(GRADESCOPE_KIT / name, source / name)
    hidden = Path(hidden) if hidden else ROOT / stage.path / HIDDEN_EXAMPLE
    if hidden.is_dir():
        shutil.copytree(hidden, source / "hidden")
    zipped = shutil.make_archive(str(out / "autograder"), "zip", source)
    return stage, Path(zipped)


def check_autograder(key):
    """Runs the autograder as Gradescope would, in a folder laid out like
    Gradescope's /autograder: the zip unpacked into source/, a student's
    upload (the unchanged starter, inside a folder of its own, as a zip of
    the project unpacks) in submission/. Its results.json must score the
    starter as the grader does, with the hidden tests after_published."""
    base = ROOT / "build" / "assignments" / f"autograder-{key}"
    stage, zipped = make_autograder(key, base / "kit")
    root = base / "root"
    shutil.rmtree(root, ignore_errors=True)
    shutil.unpack_archive(zipped, root / "source")
    shutil.copytree(root / "source" / "starter", root / "submission" / f"assignment-{stage.num}",
                    ignore=shutil.ignore_patterns("grading"))
    env = dict(os.environ, AUTOGRADER_ROOT=str(root))
    # As Gradescope does: it copies run_autograder to /autograder and runs it there.
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    result = subprocess.run(["bash", str(root / "run_autograder")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    problems = []
    results_path = root / "results" / "results.json"
    if result.returncode != 0 or not results_path.is_file():
        problems.append(f"run_autograder failed ({result.returncode}): {result.stdout[-2000:]}")
    else:
        results = json.loads(results_path.read_text())
        print(f"assignment {stage.num}: the autograder, run as Gradescope runs it, scores the starter "
              f"{results['score']}/100 over {len(results['tests'])} tests")
        if not 0 < results["score"] < 100:
            problems.append(f"the unchanged starter should get partial marks, got {results['score']}")
        shown = {t["visibility"] for t in results["tests"] if t["name"].startswith("hidden:")}
        if shown != {"after_published"}:
            problems.append(f"hidden tests reach results.json as {sorted(shown)}, not after_published")
    for problem in problems:
        print(f"autograder {stage.num}: FAIL: {problem}")
    return 1 if problems else 0


# ----------------------------------------------------------------- check ----

def leaked_solution_lines(stage, starter):
    """[(region, line, file)] for each line of the stage's regions that the
    starter still holds, in any of its files."""
    mine = [region for region in regions().values() if region.chapter == stage.number]
    mine += lab_of(stage)[1].values()
    wanted = {line: region.name for region in mine for line in solution_lines(region)}
    found = []
    for path in sorted(starter.rglob("*")):
        if not path.is_file() or "build" in path.relative_to(starter).parts:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue  # the trusted tree's archive: made from the files read here
        for line in {line.strip() for line in text.splitlines()} & wanted.keys():
            found.append((wanted[line], line, str(path.relative_to(starter))))
    return sorted(found), len(wanted)


def reference_submission(stage, starter, work):
    """The reference as a student's submission: each file the starter lets a
    student edit, taken from the repository (a lab's from its assignment/lab/)."""
    submission = work / "reference"
    shutil.rmtree(submission, ignore_errors=True)
    lab_prefix = f"{stage.path}/{STARTER_LAB}/"
    for rel in read_config(starter)["editable"]:
        source = ROOT / (f"{stage.path}/{LAB}/{rel.removeprefix(lab_prefix)}" if rel.startswith(lab_prefix) else rel)
        (submission / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, submission / rel)
    return submission


def starter_problems(stage, score, groups, took, results, hidden_dir):
    """What is wrong with the starter's grade: it must build, keep the earlier
    stages' tests passing, fail some new ones (and some of its lab's), get
    partial marks, in time, with hidden tests shown only once published."""
    problems = []
    if took > STARTER_GRADING_LIMIT_SECONDS:
        problems.append(f"grading the starter took {took:.0f} s, over {STARTER_GRADING_LIMIT_SECONDS} s")
    if not groups:
        problems.append("the starter does not build")
    earlier = groups.get("earlier stages")
    if earlier and earlier[0] != earlier[1]:
        problems.append(f"the starter fails {earlier[1] - earlier[0]} earlier-stage tests")
    new = groups.get("new feature")
    if new and new[0] == new[1]:
        problems.append("the starter already passes every new-feature test: the stubs teach nothing")
    if not 0.0 < score < 100.0:
        problems.append(f"the starter should get partial marks, got {score:.1f}")
    if hidden_dir:
        shown = {t["visibility"] for t in results["tests"] if t["name"].startswith("hidden:")}
        if shown != {"after_published"}:
            problems.append(f"hidden tests reach results.json with visibility {sorted(shown)}, "
                            "not after_published")
    lab = groups.get("extension lab")
    if lab_of(stage)[0] is not None and not (lab and lab[0] < lab[1]):
        problems.append("the starter's extension lab fails none of its tests" if lab
                        else "the extension lab's tests were not graded")
    return problems


def reference_problems(stage, score, groups, hidden_dir):
    """What is wrong with the reference's grade: anything below full marks, or
    a group that should have been graded and was not."""
    problems = []
    if score < 100.0:
        problems.append(f"the reference scores {score:.1f}, not 100")
    if not groups.get("new feature"):
        problems.append("there are no new-feature tests")
    if not hidden_dir:
        problems.append(f"no example hidden tests in {stage.path}/{HIDDEN_EXAMPLE}")
    elif not groups.get("hidden"):
        problems.append(f"the example hidden tests of {stage.path}/{HIDDEN_EXAMPLE} were not graded")
    return problems


def scores_line(groups):
    return ", ".join(f"{g} {p}/{t}" for g, (p, t, _) in groups.items())


def check(key):
    """Everything `make test` asks of stage NN's assignment."""
    _, stage = find_stage(key)
    base = ROOT / "build" / "assignments"
    starter = base / stage.folder
    work = base / f"grade-{stage.folder}"
    shutil.rmtree(starter, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    make_starter(stage.folder, starter)

    leaked, searched = leaked_solution_lines(stage, starter)
    print(f"assignment {stage.num}: the starter holds {len(leaked)} of the {searched} lines "
          "that give its regions away")
    problems = [f"the starter holds a line of region {name} in {file}: {line}" for name, line, file in leaked]

    hidden = ROOT / stage.path / HIDDEN_EXAMPLE
    hidden_dir = hidden if hidden.is_dir() else None
    # The starter first, from scratch, as a student's first submission is
    # graded: it must stay well under what a grading platform allows.
    started = time.monotonic()
    score, groups = grade(starter, starter, work, json_path=work / "results.json", quiet=True, hidden=hidden_dir)
    took = time.monotonic() - started
    print(f"assignment {stage.num}: starter scores {score:.1f}/100, graded in {took:.0f} s: {scores_line(groups)}")
    results = json.loads((work / "results.json").read_text())
    problems += starter_problems(stage, score, groups, took, results, hidden_dir)

    # Then the reference, on the same tree (only the stubbed files rebuild),
    # on the hidden tests and the tests the starter failed: its regions, put
    # back, must turn those into full marks. The tests the starter passed
    # already ran on this stage's code around the regions, which is the same
    # code here; running them again would build and run every test program of
    # the stage twice (stage 10's regions are in headers).
    rerun = {test["name"].split(": ", 1)[1] for test in results["tests"]
             if test["score"] < test["max_score"] or test["name"].startswith("hidden: ")}
    score, groups = grade(starter, reference_submission(stage, starter, work), work, quiet=True, hidden=hidden_dir,
                          only=rerun)
    print(f"assignment {stage.num}: reference scores {score:.1f}/100 {scores_line(groups)} "
          f"(ran the hidden tests and those the starter failed: {len(rerun)})")
    problems += reference_problems(stage, score, groups, hidden_dir)
    for problem in problems:
        print(f"assignment {stage.num}: FAIL: {problem}")
    return 1 if problems else 0


# ------------------------------------------------------------------- cli ----

def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/assignment", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make", help="write a starter project")
    p.add_argument("stage")
    p.add_argument("out")
    p.add_argument("--no-lab", action="store_true", help="leave the extension lab out (part 1 only)")
    p = sub.add_parser("grade", help="grade a submission (run inside a starter)")
    p.add_argument("--trusted", default=".", help="the starter as handed out (default: this folder)")
    p.add_argument("--submission", default=".", help="the student's tree (default: this folder)")
    p.add_argument("--work", default="build/grading", help="where to build")
    p.add_argument("--json", default="build/grading/results.json", help="Gradescope results.json")
    p.add_argument("--hidden", help="a folder of hidden tests (*_test.cpp, GoogleTest) to grade too")
    p = sub.add_parser("check", help="check a stage's assignment (make test)")
    p.add_argument("stage")
    p = sub.add_parser("autograder", help="write Gradescope's autograder (OUT/autograder.zip)")
    p.add_argument("stage")
    p.add_argument("out")
    p.add_argument("--hidden", help="the instructor's hidden tests (default: the stage's example set)")
    p = sub.add_parser("check-autograder", help="run the autograder as Gradescope would (make test)")
    p.add_argument("stage")
    p = sub.add_parser("filter", help="print a source as the book shows it")
    p.add_argument("--edition", choices=("reader", "course"), default="reader")
    p.add_argument("file")
    args = parser.parse_args(argv)
    try:
        if args.command == "make":
            stage, stubbed = make_starter(args.stage, args.out, lab=not args.no_lab)
            print(f"assignment {stage.num} written to {args.out} ({len(stubbed)} files to complete)")
            print("hand it out as is; students run `make test` and `make grade` there")
        elif args.command == "grade":
            trusted = Path(args.trusted)
            if (trusted / "grading" / "trusted.tar.gz").is_file():
                # Inside a starter: rebuild from the pristine copy, not from this (editable) tree.
                work = Path(args.work).resolve()
                pristine = work / "trusted"
                if not pristine.is_dir():
                    with tarfile.open(trusted / "grading" / "trusted.tar.gz") as tar:
                        tar.extractall(pristine, filter="data")
                    shutil.copytree(trusted / "grading", pristine / "grading", dirs_exist_ok=True)
                trusted = pristine
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            hidden = Path(args.hidden).resolve() if args.hidden else None
            score, _ = grade(trusted, args.submission, Path(args.work), json_path=args.json, hidden=hidden)
            print(f"results.json: {args.json}")
        elif args.command == "check":
            return check(args.stage)
        elif args.command == "autograder":
            stage, zipped = make_autograder(args.stage, args.out, args.hidden)
            print(f"assignment {stage.num}: upload {zipped} as the autograder "
                  "(Gradescope: programming assignment, Debian 12 base image)")
        elif args.command == "check-autograder":
            return check_autograder(args.stage)
        elif args.command == "filter":
            sys.stdout.write(book_text(Path(args.file).read_text(), regions(), args.edition, name=args.file))
        return 0
    except AssignmentError as error:
        print(f"tools/assignment: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
