#!/usr/bin/env python3
"""Find the Python interpreters the comparisons run on.

Two questions matter to the scenario checks and the benchmark report:

* ``newest_cpython()``: which is the newest CPython on this machine (3.12 or
  later by default, since later stages need eager tasks)?  The scenario twins
  and the asyncio benchmark twins run under it.
* ``uvloop_python()``: which interpreter can ``import uvloop``?  Often that is
  the distribution's own Python (Debian packages uvloop for /usr/bin/python3),
  which need not be the newest one.

Both answers are worked out afresh each time; nothing is cached on disk.  To
keep that cheap (every scenario check is its own CTest test, and spawning an
interpreter costs 15-100 ms), candidates are first ranked by the version their
path spells (``python3.13``, pyenv's ``versions/3.13.0/``, or the file a
``python3`` symlink resolves to), and only the best of them are started to
confirm it: ``newest_cpython()`` normally starts one interpreter.  A candidate
whose path says nothing about its version is always asked.  pyenv's shims are
skipped (they only dispatch to pyenv's ``versions/``, which are searched
directly).  Environment overrides:

* ``PYTHON=/path/to/python``        the interpreter ``newest_cpython()`` returns
* ``UVLOOP_PYTHON=/path/to/python`` the interpreter ``uvloop_python()`` returns

Run as a script, it prints both answers::

    python3 comparisons/pythons.py
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

DEFAULT_MIN_VERSION = (3, 12)
PROBE_TIMEOUT_S = 20

# Runs inside each candidate.  Kept to syntax that even Python 2.7 parses, so
# that an old interpreter answers with its version instead of a SyntaxError.
_PROBE = (
    "import platform, sys; "
    "print('%d %d %d %s' % (tuple(sys.version_info[:3]) "
    "+ (platform.python_implementation(),)))"
)

# python3.12, python3.13, ... (not python3.13t, python3.12-config, ...)
_VERSIONED_NAME = re.compile(r"^python3\.\d+$")
# The version a file name spells: python3.13 -> (3, 13).
_NAME_VERSION = re.compile(r"^python(\d+)\.(\d+)$")
# The version a pyenv-style install directory spells: 3.13.0, 3.13.0t, 3.14-dev.
_DIR_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?")

Guess = Optional[Tuple[int, ...]]  # (3, 13) or (3, 13, 0); None: the path does not say


class InterpreterError(RuntimeError):
    """No suitable interpreter, or an override that does not qualify."""


@dataclass(frozen=True)
class Interpreter:
    """A Python interpreter we asked for its version."""

    path: str
    version: Tuple[int, int, int]
    implementation: str  # "CPython", "PyPy", ...

    @property
    def version_str(self) -> str:
        """'3.13.0'"""
        return ".".join(str(part) for part in self.version)

    @property
    def short_version(self) -> str:
        """'3.13'"""
        return "%d.%d" % self.version[:2]

    def __str__(self) -> str:
        return f"{self.implementation} {self.version_str} ({self.path})"

    def __fspath__(self) -> str:
        # Lets an Interpreter be passed straight to subprocess.
        return self.path


def probe(path: str) -> Optional[Interpreter]:
    """Ask the interpreter at `path` for its version; None if it cannot answer.

    A pyenv shim for a version that is not selected, a broken symlink or a
    non-Python executable all count as "cannot answer".
    """
    try:
        result = subprocess.run(
            [path, "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    fields = result.stdout.split()
    if result.returncode != 0 or len(fields) != 4:
        return None
    major, minor, micro, implementation = fields
    return Interpreter(path, (int(major), int(minor), int(micro)), implementation)


def can_import(interpreter: Interpreter | str, module: str) -> bool:
    """True if `interpreter` can import `module`."""
    try:
        result = subprocess.run(
            [os.fspath(interpreter), "-c", f"import {module}"],
            capture_output=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def module_version(interpreter: Interpreter | str, module: str) -> Optional[str]:
    """`module.__version__` as seen by `interpreter`, or None."""
    try:
        result = subprocess.run(
            [os.fspath(interpreter), "-c",
             f"import {module}; print({module}.__version__)"],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.strip() or None


def _pyenv_roots() -> List[Path]:
    roots = []
    if os.environ.get("PYENV_ROOT"):
        roots.append(Path(os.environ["PYENV_ROOT"]))
    roots += [Path.home() / ".pyenv", Path("/root/.pyenv")]
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if _is_pyenv_shims(directory):
            roots.append(Path(directory).parent)
    return roots


def _is_pyenv_shims(directory: str) -> bool:
    """True for pyenv's <root>/shims (not for other tools' shims, e.g. asdf's,
    whose interpreters we would not otherwise find)."""
    path = Path(directory)
    return path.name == "shims" and (path.parent / "versions").is_dir()


def candidate_paths() -> List[str]:
    """Every place a CPython might live, without duplicates, in search order.

    PATH (``python3.NN`` and ``python3``), pyenv's versions, then the usual
    system locations.  Two paths to the same file count once.  pyenv's shims
    are left out: a shim for a version that is not selected fails after ~100 ms,
    and every interpreter a shim can reach is found under pyenv's versions/.
    """
    found: List[str] = []

    def add(path: str | Path) -> None:
        found.append(str(path))

    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or not os.path.isdir(directory) or _is_pyenv_shims(directory):
            continue
        for name in sorted(os.listdir(directory)):
            if _VERSIONED_NAME.match(name):
                add(Path(directory) / name)
    on_path = shutil.which("python3")
    if on_path and not _is_pyenv_shims(os.path.dirname(on_path)):
        add(on_path)
    for root in _pyenv_roots():
        for path in sorted(glob.glob(str(root / "versions" / "*" / "bin" / "python3"))):
            add(path)
    for directory in ("/usr/bin", "/usr/local/bin"):
        for path in sorted(glob.glob(os.path.join(directory, "python3.*"))):
            if _VERSIONED_NAME.match(os.path.basename(path)):
                add(path)
    add("/usr/bin/python3")
    return _unique_existing(found)


def _unique_existing(paths: List[str]) -> List[str]:
    """Drop missing files and second paths to an already listed file."""
    seen = set()
    unique = []
    for path in paths:
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            continue
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        unique.append(path)
    return unique


def guess_version(path: str) -> Guess:
    """The version `path` spells, without running it; None if it does not say.

    Looks at the file name (``python3.13``), the name of the file a symlink
    resolves to (``python3`` -> ``python3.13``) and a pyenv-style install
    directory (``.../versions/3.13.0/bin/python3``), which alone gives the
    micro version.  Only a guess: the probe has the last word.
    """
    from_name: Guess = None
    for name in (os.path.basename(path), os.path.basename(os.path.realpath(path))):
        match = _NAME_VERSION.match(name)
        if match:
            from_name = (int(match[1]), int(match[2]))
            break
    from_dir: Guess = None
    for candidate in (path, os.path.realpath(path)):
        parts = Path(candidate).parts
        # <prefix>/<version dir>/bin/<file>: pyenv, asdf, python-build, uv, ...
        if len(parts) >= 3 and parts[-2] == "bin":
            match = _DIR_VERSION.match(parts[-3])
            if match:
                from_dir = tuple(int(group) for group in match.groups() if group is not None)
                break
    if from_dir is not None and (from_name is None or from_dir[:2] == from_name):
        return from_dir
    return from_name


def _could_be_newer(guess: Guess, version: Tuple[int, ...]) -> bool:
    """Could an interpreter guessed as `guess` be newer than `version`?"""
    if guess is None:
        return True  # the path does not say: only asking it tells
    known = tuple(version[:len(guess)])
    return guess > known or (guess == known and len(guess) < 3)


def _ranked_candidates(min_version: Tuple[int, ...] = (0,)) -> List[Tuple[str, Guess]]:
    """(path, guess) for every candidate that might be >= min_version, most
    promising first: highest guessed version first (a bare 3.13 ahead of 3.13.0,
    since it might be 3.13.5), then the ones whose path does not say.  Ties
    keep the search order of candidate_paths()."""
    ranked = []
    for path in candidate_paths():
        guess = guess_version(path)
        if guess is not None and guess < tuple(min_version)[:len(guess)]:
            continue  # says it is too old
        ranked.append((path, guess))

    def key(item: Tuple[str, Guess]):
        guess = item[1]
        if guess is None:
            return (1, ())
        padded = tuple(guess) + (float("inf"),) * (3 - len(guess))
        return (0, tuple(-part for part in padded))

    return sorted(ranked, key=key)


def _cpythons() -> Iterator[Interpreter]:
    """Every candidate that answers the probe and is CPython, probing lazily,
    most promising first (see _ranked_candidates)."""
    for path, _ in _ranked_candidates():
        interpreter = probe(path)
        if interpreter is not None and interpreter.implementation == "CPython":
            yield interpreter


def require(path: str, min_version: Tuple[int, ...] = DEFAULT_MIN_VERSION,
            what: str = "interpreter") -> Interpreter:
    """Probe `path` and insist that it is a CPython >= min_version."""
    interpreter = probe(path)
    if interpreter is None:
        raise InterpreterError(f"{what} {path!r} cannot be run (or is not Python)")
    if interpreter.implementation != "CPython":
        raise InterpreterError(
            f"{what} {path!r} is {interpreter.implementation}, not CPython")
    if interpreter.version < tuple(min_version):
        raise InterpreterError(
            f"{what} {path!r} is CPython {interpreter.version_str}; "
            f"need {'.'.join(map(str, min_version))} or later")
    return interpreter


def newest_cpython(min_version: Tuple[int, ...] = DEFAULT_MIN_VERSION) -> Interpreter:
    """The newest CPython >= min_version; $PYTHON, if set, decides instead.

    Raises InterpreterError if $PYTHON is unusable or nothing qualifies.
    """
    override = os.environ.get("PYTHON")
    if override:
        return require(override, min_version, what="$PYTHON")
    # Ask the candidates most promising first, and only those whose path leaves
    # room for a newer version than the best confirmed so far: usually the
    # first one asked is the answer and the rest are skipped unasked.
    best: Optional[Interpreter] = None
    for path, guess in _ranked_candidates(min_version):
        if best is not None and not _could_be_newer(guess, best.version):
            continue
        interpreter = probe(path)
        if interpreter is None or interpreter.implementation != "CPython":
            continue
        if interpreter.version >= tuple(min_version):
            if best is None or interpreter.version > best.version:
                best = interpreter
    if best is None:
        raise InterpreterError(
            f"no CPython {'.'.join(map(str, min_version))} or later found "
            "(looked on PATH, in pyenv, /usr/bin, /usr/local/bin); "
            "set PYTHON=/path/to/python3.12")
    return best


def uvloop_python() -> Optional[Interpreter]:
    """An interpreter that can import uvloop, or None.

    $UVLOOP_PYTHON, if set, decides (and must import uvloop).  Otherwise
    /usr/bin/python3 is tried first (distributions package uvloop for it),
    then every other CPython, newest first.
    """
    override = os.environ.get("UVLOOP_PYTHON")
    if override:
        interpreter = require(override, (3,), what="$UVLOOP_PYTHON")
        if not can_import(interpreter, "uvloop"):
            raise InterpreterError(f"$UVLOOP_PYTHON {override!r} cannot import uvloop")
        return interpreter
    system = probe("/usr/bin/python3")
    if system is not None and can_import(system, "uvloop"):
        return system
    for interpreter in _cpythons():  # newest first, probed one at a time
        if _same_file(interpreter.path, "/usr/bin/python3"):
            continue  # already tried
        if can_import(interpreter, "uvloop"):
            return interpreter
    return None


def _same_file(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def main() -> int:
    try:
        newest = newest_cpython()
        print(f"newest CPython: {newest}")
    except InterpreterError as error:
        print(f"newest CPython: none ({error})")
        newest = None
    try:
        uv = uvloop_python()
    except InterpreterError as error:
        print(f"uvloop:         none ({error})")
        return 1
    if uv is None:
        print("uvloop:         none (no interpreter here can import uvloop)")
    else:
        print(f"uvloop:         {uv}, uvloop {module_version(uv, 'uvloop')}")
    return 0 if newest is not None else 1


if __name__ == "__main__":
    sys.exit(main())
