#!/usr/bin/env python3
"""Check a scenario's output against the `// expect:` lines of its C++ source.

A scenario is a small program that prints a trace.  Its C++ version lives at
``tests/scenarios/<group>/<name>.cpp`` and carries the expected trace as
whole-line comments; its Python twin lives at
``comparisons/scenarios/<group>/<name>.py``.  Both must print the same lines,
so CPython, not us, decides what is right.

Directives (one per line, ``//`` may be indented)::

    // expect: A ran            stdout line, both runs
    // expect-cpp: X            stdout line, C++ run only
    // expect-cpython: X        stdout line, CPython run only
    // expect-stderr: boom      stderr must contain "boom" somewhere, both runs
    // requires-python: 3.12    the CPython twin needs at least this version

The text after ``// expect: `` is the exact line; trailing whitespace is
ignored (on both sides).  stdout must consist of exactly the expected lines,
in order.  The program must also exit with status 0.

Usage::

    check_scenario.py cpp     SCENARIO_CPP --binary PATH     # runs: PATH <name>
    check_scenario.py cpython SCENARIO_CPP [--python INTERP]  # runs the twin

Exit status: 0 if the output matches, 1 if not (a unified diff of expected
vs actual stdout and the run's stderr are printed), 2 on bad usage.
"""
from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

import pythons

COMPARISONS_DIR = Path(__file__).resolve().parent
TIMEOUT_S = 60

# "// expect: text", "// expect-cpp: text", ...  The single space after the
# colon is a separator; anything after it (leading spaces too) is the line.
_DIRECTIVE = re.compile(
    r"^\s*//\s*(?P<kind>expect|expect-cpp|expect-cpython|expect-stderr|requires-python):"
    r" ?(?P<text>.*)$")
# Something that looks like a directive but is not one of the above (a typo).
_LOOKS_LIKE_DIRECTIVE = re.compile(r"^\s*//\s*(expect[\w-]*|requires[\w-]*)\s*:")


class ScenarioError(Exception):
    """The scenario file or the run could not be checked at all."""


@dataclass
class Expectations:
    """What one scenario source says its runs must produce."""

    stdout: dict = field(default_factory=lambda: {"cpp": [], "cpython": []})
    stderr_contains: List[str] = field(default_factory=list)
    requires_python: Optional[Tuple[int, ...]] = None


def parse_expectations(source: Path) -> Expectations:
    """Read the directives out of a scenario's C++ source."""
    expected = Expectations()
    for number, line in enumerate(source.read_text().splitlines(), start=1):
        match = _DIRECTIVE.match(line)
        if match is None:
            if _LOOKS_LIKE_DIRECTIVE.match(line):
                raise ScenarioError(f"{source}:{number}: unknown directive: {line.strip()}")
            continue
        kind = match["kind"]
        text = match["text"].rstrip()
        if kind == "expect":
            expected.stdout["cpp"].append(text)
            expected.stdout["cpython"].append(text)
        elif kind == "expect-cpp":
            expected.stdout["cpp"].append(text)
        elif kind == "expect-cpython":
            expected.stdout["cpython"].append(text)
        elif kind == "expect-stderr":
            expected.stderr_contains.append(text)
        elif kind == "requires-python":
            expected.requires_python = _parse_version(text, source, number)
    if not expected.stdout["cpp"] and not expected.stdout["cpython"]:
        raise ScenarioError(f"{source}: no '// expect:' lines")
    return expected


def _parse_version(text: str, source: Path, number: int) -> Tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.strip().split("."))
    except ValueError:
        raise ScenarioError(f"{source}:{number}: bad version {text!r}") from None


def twin_of(scenario: Path) -> Path:
    """tests/scenarios/<group>/<name>.cpp -> comparisons/scenarios/<group>/<name>.py;
    an extension lab's, stages/NN_*/assignment/lab/scenarios/<name>.cpp (lab/
    in a starter) -> comparisons/scenarios/labNN/<name>.py"""
    stage = next((folder.name for folder in scenario.resolve().parents if folder.parent.name == "stages"), None)
    group = f"lab{stage[:2]}" if stage is not None else scenario.parent.name
    return COMPARISONS_DIR / "scenarios" / group / (scenario.stem + ".py")


def run(command: List[str]) -> subprocess.CompletedProcess:
    """Run a scenario program, capturing its output, with a timeout."""
    try:
        return subprocess.run(command, capture_output=True, text=True,
                              errors="replace", timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as timeout:
        raise ScenarioError(
            f"timed out after {TIMEOUT_S} s: {' '.join(command)}\n"
            f"stdout so far:\n{_text(timeout.stdout)}\nstderr so far:\n{_text(timeout.stderr)}"
        ) from None
    except OSError as error:
        raise ScenarioError(f"cannot run {command[0]}: {error}") from None


def _text(data) -> str:
    if isinstance(data, bytes):
        return data.decode(errors="replace")
    return data or ""


def problems_with(scenario: Path, result: subprocess.CompletedProcess,
                  expected_lines: List[str], stderr_contains: List[str],
                  label: str) -> List[str]:
    """Everything wrong with one run, as printable paragraphs (empty: all good)."""
    problems = []
    actual_lines = [line.rstrip() for line in result.stdout.splitlines()]
    if actual_lines != expected_lines:
        diff = difflib.unified_diff(expected_lines, actual_lines,
                                    fromfile=f"expected ({scenario.name})",
                                    tofile=f"actual ({label})", lineterm="")
        problems.append("stdout differs from the // expect lines:\n" + "\n".join(diff))
    for needle in stderr_contains:
        if needle not in result.stderr:
            problems.append(f"stderr does not contain {needle!r}")
    if result.returncode != 0:
        problems.append(f"exit status {result.returncode} (expected 0)")
    return problems


def report(scenario: Path, result: subprocess.CompletedProcess, expected_lines: List[str],
           stderr_contains: List[str], label: str) -> int:
    """Print OK or the problems; return the exit status for this check."""
    name = f"{scenario.parent.name}/{scenario.stem}"
    problems = problems_with(scenario, result, expected_lines, stderr_contains, label)
    if not problems:
        print(f"OK {name} ({label}): {len(expected_lines)} lines match")
        return 0
    print(f"FAIL {name} ({label})")
    for problem in problems:
        print(problem)
    print("--- stderr of the run:")
    print(result.stderr.rstrip() or "(empty)")
    return 1


def check_cpp(scenario: Path, binary: str) -> int:
    """Run `binary <name>` and compare with the expect and expect-cpp lines."""
    expected = parse_expectations(scenario)
    result = run([binary, scenario.stem])
    return report(scenario, result, expected.stdout["cpp"], expected.stderr_contains, "C++")


def check_cpython(scenario: Path, python: Optional[str]) -> int:
    """Run the Python twin and compare with the expect and expect-cpython lines."""
    expected = parse_expectations(scenario)
    twin = twin_of(scenario)
    if not twin.is_file():
        raise ScenarioError(f"no Python twin for {scenario}: expected {twin}")
    if python:
        interpreter = pythons.require(python, (3,), what="--python")
    else:
        interpreter = pythons.newest_cpython()
    needed = expected.requires_python
    if needed and interpreter.version < needed:
        raise ScenarioError(
            f"{scenario.name} requires CPython {'.'.join(map(str, needed))} or later; "
            f"{interpreter} is too old (pass --python or set PYTHON)")
    # -I (isolated mode): ignore PYTHON* variables such as PYTHONASYNCIODEBUG
    # and the user's site-packages, so the trace depends on CPython alone.
    result = run([interpreter.path, "-I", str(twin)])
    label = f"CPython {interpreter.version_str}"
    return report(scenario, result, expected.stdout["cpython"], expected.stderr_contains, label)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Check a scenario's output against the // expect: lines of its C++ source.")
    runs = parser.add_subparsers(dest="side", required=True)
    cpp = runs.add_parser("cpp", help="run the C++ scenario binary")
    cpp.add_argument("scenario", type=Path, help="tests/scenarios/<group>/<name>.cpp")
    cpp.add_argument("--binary", required=True,
                     help="scenario runner; invoked as BINARY <name>")
    cpython = runs.add_parser("cpython", help="run the Python twin under CPython")
    cpython.add_argument("scenario", type=Path, help="tests/scenarios/<group>/<name>.cpp")
    cpython.add_argument("--python", default=None,
                         help="interpreter (default: newest CPython >= 3.12, or $PYTHON)")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    try:
        if not args.scenario.is_file():
            raise ScenarioError(f"no such scenario: {args.scenario}")
        if args.side == "cpp":
            return check_cpp(args.scenario, args.binary)
        return check_cpython(args.scenario, args.python)
    except (ScenarioError, pythons.InterpreterError) as error:
        print(f"FAIL {args.scenario}: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
