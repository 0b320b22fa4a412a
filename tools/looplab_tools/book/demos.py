"""What the pages show that a program printed, run when the book is built.

- Every stage's demo, built (build/release, else build/book-demos) and run; its output saved for
  the chapter's \\verbinclude demo_sNN.txt.
- The programs that measure what a chapter claims: an example program under
  examples/<group>/ that carries the line `// book: run at build time` is
  built with the demos (CMake makes one binary <name>_sNN per stage of the
  group) and run as the group's first stage's, <name>_s<since>; its output
  goes to <name>.txt.
- The book's own Python programs, book/examples/<name>.py (the tiny loop of
  chapter 0, a coroutine driven by hand in chapter 5, ...), run under the
  newest CPython found (comparisons/pythons.py; PYTHON=... overrides) in
  their folder, with standard error in the output and nothing buffered, so
  warnings and log lines come where they were written; output to <name>.txt.

A page shows a program with \\include name.py (book/examples/ is on Doxygen's
example path) or names it, and its output with \\verbinclude name.txt.
"""
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from looplab_tools.book.config import DEMO_BUILD, RELEASE_BUILD, ROOT, BookError, rel
from looplab_tools.book.sources import features, stages

BOOK_EXAMPLES = Path("book") / "examples"      # the book's own Python programs, under the root
RUN_AT_BUILD = "// book: run at build time"    # the line that makes an example program one of them
TIMEOUT_S = 120
DEMO_OUTPUT = re.compile(r"^demo_s(\d\d)\.txt$")


def run(command, edition, **kwargs):
    """Run `command` in the repository, saying so; a failure is a BookError."""
    edition.say("$ " + " ".join(str(c) for c in command))
    result = subprocess.run([str(c) for c in command], cwd=ROOT, **kwargs)
    if result.returncode != 0:
        raise BookError(f"`{' '.join(str(c) for c in command)}` failed with exit status {result.returncode}")
    return result


@dataclass(frozen=True)
class Program:
    """A program whose output a page shows: its source, the file its output
    goes to (in generated/), and, for an example program, the binary that runs."""
    source: Path
    output: str
    binary: str = ""   # <name>_sNN for an example program; empty for a Python one

    @property
    def is_python(self):
        return self.source.suffix == ".py"


def book_programs(root=ROOT, since=None):
    """The programs the build runs for the pages, in a stable order:
    examples/<group>/*.cpp with the RUN_AT_BUILD line (`since`: {group: first
    stage}, features.toml's by default), then book/examples/*.py."""
    since = dict(features()) if since is None else since
    found = []
    for source in sorted((root / "examples").glob("*/*.cpp")):
        group = source.parent.name
        if group in since and RUN_AT_BUILD in (line.strip() for line in source.read_text().splitlines()):
            found.append(Program(source, f"{source.stem}.txt", f"{source.stem}_s{since[group]:02d}"))
    found += [Program(source, f"{source.stem}.txt") for source in sorted((root / BOOK_EXAMPLES).glob("*.py"))]
    return found


def generated_outputs(root=ROOT, since=None):
    """{output file name: [Program]} of the programs the build runs (a name
    with two programs is a clash the lint reports)."""
    names = {}
    for program in book_programs(root, since):
        names.setdefault(program.output, []).append(program)
    return names


def is_generated_output(name, root=ROOT):
    """Whether \\verbinclude `name` shows a file the build writes: a demo's
    output or a program's."""
    return bool(DEMO_OUTPUT.match(name)) or name in generated_outputs(root)


def python_interpreter():
    """The newest CPython (comparisons/pythons.py), or this one when none qualifies."""
    try:
        import pythons
        return pythons.newest_cpython().path
    except Exception as error:  # any failure to find one: fall back, and say so
        print(f"book: note: no CPython 3.12 or later found ({error}); running the book's Python "
              f"programs under {sys.executable}", file=sys.stderr)
        return sys.executable


def program_command(program, demo_build=DEMO_BUILD, python=None):
    """(command, working directory) of one program."""
    if program.is_python:
        return [python or python_interpreter(), "-u", program.source.name], program.source.parent
    return [str(demo_build / "bin" / program.binary)], ROOT


def run_program(program, generated, demo_build=DEMO_BUILD, python=None):
    """Run one program and write its output into the folder `generated`;
    returns the output. A failure or a timeout is a BookError."""
    command, cwd = program_command(program, demo_build, python)
    environment = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S,
                                env=environment, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise BookError(f"{rel(program.source)} did not finish in {TIMEOUT_S} s") from None
    except OSError as error:
        raise BookError(f"cannot run {rel(program.source)}: {error}") from None
    if result.returncode != 0:
        raise BookError(f"{rel(program.source)} exited with status {result.returncode}:\n"
                        f"{result.stdout}{result.stderr}")
    # A Python program's standard error belongs to its output (warnings, log lines).
    output = result.stdout + (result.stderr if program.is_python else "")
    (generated / program.output).write_text(output)
    return output


def demo_build_dir():
    """Where the demos are built: `make report`'s build/release if there is
    one (the same optimised code, every demo and example program in it, and
    built already when the book follows the report, as in CI), else
    build/book-demos, configured without tests or benchmarks."""
    cache = RELEASE_BUILD / "CMakeCache.txt"
    if cache.is_file() and "CMAKE_BUILD_TYPE:STRING=Release\n" in cache.read_text():
        return RELEASE_BUILD
    return DEMO_BUILD


def build_demos(edition):
    """Build every stage's demo and the example programs (demo_build_dir());
    save what each demo and each of the book's programs prints in the
    edition's generated/ folder."""
    demo_build = demo_build_dir()
    if demo_build != RELEASE_BUILD:
        run(["nice", "cmake", "-S", ".", "-B", rel(demo_build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
             "-DLOOPLAB_BUILD_TESTS=OFF", "-DLOOPLAB_BUILD_BENCH=OFF"], edition, stdout=subprocess.DEVNULL)
    run(["nice", "cmake", "--build", rel(demo_build)], edition)
    for number in stages():
        demo = demo_build / "bin" / f"demo_s{number:02d}"
        if not demo.is_file():
            continue
        try:
            result = subprocess.run(["nice", str(demo)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise BookError(f"{rel(demo)} did not finish in 120 s") from None
        if result.returncode != 0:
            raise BookError(f"{rel(demo)} exited with status {result.returncode}:\n{result.stderr}")
        out = edition.generated / f"demo_s{number:02d}.txt"
        out.write_text(result.stdout)
        edition.say(f"{rel(demo)} -> {rel(out)} ({len(result.stdout.splitlines())} lines)")
    python = None
    for program in book_programs():
        if program.is_python and python is None:
            python = python_interpreter()
        output = run_program(program, edition.generated, demo_build, python=python)
        ran = python if program.is_python else rel(demo_build / "bin" / program.binary)
        edition.say(f"{rel(program.source)} ({ran}) -> {rel(edition.generated / program.output)} "
                    f"({len(output.splitlines())} lines)")
