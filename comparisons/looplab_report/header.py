"""The report's header rows (the machine, the build, the interpreters, the
mode) and the warnings about how far its figures can be trusted."""
from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path
from typing import Optional

import pythons
from looplab_report import discover, machine
from looplab_report.model import Implementation, Results
from looplab_report.plan import Job


def compiler_text(build_dir: Path, cache: dict[str, str]) -> str:
    """The C++ compiler's first --version line, and its path."""
    compiler = cache.get("CMAKE_CXX_COMPILER")
    if not compiler:
        return f"unknown (no CMAKE_CXX_COMPILER in {build_dir / 'CMakeCache.txt'})"
    version = machine.first_line_of([compiler, "--version"]) or "(did not answer --version)"
    return f"{version} ({compiler})"


def interpreter_rows(python_impls: list[Implementation]) -> list[tuple[str, str]]:
    """One row per interpreter the Python loops ran on, and one for uvloop."""
    rows, seen = [], set()
    for impl in python_impls:
        interpreter = impl.interpreter
        if interpreter.path in seen:
            continue
        seen.add(interpreter.path)
        role = "newest CPython" if impl.id == "cpython_asyncio" else "uvloop's interpreter"
        rows.append((role, f"CPython {interpreter.version_str} ({interpreter.path})"))
    uvloop = [impl for impl in python_impls if impl.kind == "uvloop"]
    rows.append(("uvloop", uvloop[0].label if uvloop else "not found on this machine"))
    return rows


def environment(build_dir: Path, quick: bool, repetitions: int,
                python_impls: list[Implementation],
                interleaved: bool = False) -> list[tuple[str, str]]:
    """The header of the report: (label, value) rows."""
    cache = machine.read_cmake_cache(build_dir)
    rows = [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("machine", f"{machine.cpu_model()}, {machine.cpu_count()} CPUs, "
                    f"{machine.memory_total()} RAM"),
        ("kernel", f"{platform.system()} {platform.release()}"),
        ("C++ compiler", compiler_text(build_dir, cache)),
        ("build type", f"{cache.get('CMAKE_BUILD_TYPE') or 'unknown'} ({build_dir})"),
    ]
    rows += interpreter_rows(python_impls)
    mode = "quick (smoke test: small batches, 1 repetition)" if quick else "full"
    how = (" (interleaved: every program once per round, one repetition a process)"
           if interleaved else "")
    rows.append(("mode", f"{mode}; {repetitions} repetition(s){how}, median reported"))
    return rows


def program_rows(native: list[tuple[Implementation, Path]], tcp_jobs: list[Job]) -> list[tuple[str, str]]:
    """Header rows: which native programs and which tcp_echo servers were run."""
    rows = [("native programs", "; ".join(f"{impl.label} ({binary})" for impl, binary in native)
             if native else "none built (comparisons/native/)")]
    if tcp_jobs:
        client = tcp_jobs[0].command[tcp_jobs[0].command.index("--client") + 1]
        driver = os.path.relpath(discover.TCP_ECHO_DRIVER, discover.COMPARISONS_DIR.parent)
        rows.append(("tcp_echo", f"{len(tcp_jobs)} echo server runs planned (the tcp_echo "
                                 f"section shows those that ran), driven by {driver} "
                                 f"with the client {client}"))
    return rows


def python_gc_state(results: Results) -> str:
    """"on", "off", "unknown" or "mixed": how the twins that ran had the cyclic gc."""
    states = set().union(*results.python_gc.values()) if results.python_gc else set()
    if not states:
        return "unknown"
    return states.pop() if len(states) == 1 else "mixed"


def python_gc_text(results: Results) -> str:
    """The header's "Python gc" value: was the cyclic gc on in the twins?"""
    state = python_gc_state(results)
    if state == "on":
        return "on (the twins ran with CPython's cyclic garbage collector enabled, as real programs run)"
    if state == "off":
        return "off (gbench.py --no-gc: disabled during each timed batch, unlike real programs)"
    if state == "mixed":
        detail = "; ".join(f"{impl_id}: {'/'.join(sorted(states))}"
                           for impl_id, states in sorted(results.python_gc.items()))
        return f"mixed (not all twins ran with the same setting: {detail})"
    return "unknown (the twins' JSON does not record it)"


def unoptimized_build_warning(interpreter: pythons.Interpreter) -> Optional[str]:
    """A warning if the baseline CPython was built without PGO (pyenv's default).

    Only said of interpreters outside /usr/bin: distributions run PGO from their
    own build rules, so a missing configure flag proves nothing there.
    """
    if interpreter.path.startswith("/usr/bin/"):
        return None
    config_args = machine.first_line_of(
        [interpreter.path, "-c", "import sysconfig; print(sysconfig.get_config_var('CONFIG_ARGS'))"])
    if config_args is None or "--enable-optimizations" in config_args:
        return None
    return (f"CPython {interpreter.version_str} ({interpreter.path}) was configured without "
            "--enable-optimizations (no profile-guided optimization; pyenv's default), so "
            "asyncio on it is slower than on a distribution's or python.org's build, and the "
            "ratios against it are larger.  For a fairer baseline build it with "
            "PYTHON_CONFIGURE_OPTS='--enable-optimizations --with-lto'.")


def cpp_context_warnings(raw_dir: Path) -> list[str]:
    """Warnings Google Benchmark itself would print: debug library, CPU scaling."""
    warnings = []
    for path in sorted(raw_dir.glob("looplab_s*.json")):
        if "--" in path.name:
            continue  # one family's run: its context is in the merged file as well
        try:
            context = json.loads(path.read_text()).get("context", {})
        except (OSError, ValueError):
            continue
        if context.get("library_build_type") == "debug":
            warnings.append(f"{path.name}: the Google Benchmark library reports a debug "
                            "build (its own warning: \"timings may be affected\"); the code "
                            "under test is built as the build type above says")
        if context.get("cpu_scaling_enabled"):
            warnings.append(f"{path.name}: CPU frequency scaling was enabled; "
                            "expect noisier figures")
    return warnings
