"""Finding what can run: the benchmark binaries, the native C programs, the
twins, the echo servers and the Python loops (whatever is missing is left out,
and a note says so)."""
from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

import pythons
from looplab_report import machine
from looplab_report.model import Implementation, Results, Workload

COMPARISONS_DIR = Path(__file__).resolve().parent.parent
TWINS_DIR = COMPARISONS_DIR / "asyncio"
ECHO_DIR = COMPARISONS_DIR / "echo"
TCP_ECHO_DRIVER = COMPARISONS_DIR / "tcp_echo.py"
# The native C programs (comparisons/native/): (implementation id, binary, label).
# One implementation may have several programs (libuv's I/O, thread and
# thread-pool workloads), each run once; their figures share the implementation's row.
NATIVE_PROGRAMS = (("epoll_floor", "epoll_pingpong", "raw epoll floor (C)"),
                   ("libuv", "libuv_pingpong", "libuv {version} (C)"),
                   ("libuv", "libuv_threadsafe", "libuv {version} (C)"),
                   ("libuv", "libuv_executor", "libuv {version} (C)"))


def find_program(build_dir: Path, name: str) -> Optional[Path]:
    """<build-dir>/bin/<name> if it is there and executable."""
    path = build_dir / "bin" / name
    return path if path.is_file() and os.access(path, os.X_OK) else None


def find_staged(build_dir: Path, name: str, first_stage: int = 0) -> list[tuple[int, Path]]:
    """(stage, path) of every executable <build-dir>/bin/<name>_sNN with NN >= first_stage,
    in stage order."""
    found = []
    for path in sorted((build_dir / "bin").glob(f"{name}_s[0-9][0-9]")):
        stage = int(path.name[-2:])
        if stage >= first_stage and path.is_file() and os.access(path, os.X_OK):
            found.append((stage, path))
    return found


def find_cpp_benchmarks(build_dir: Path) -> list[tuple[int, Path]]:
    """(stage, path) for every bench_sNN binary, in stage order."""
    return find_staged(build_dir, "bench")


def latest_staged(build_dir: Path, name: str, first_stage: int) -> Optional[tuple[int, Path]]:
    """(stage, binary) of the latest <name>_sNN, NN >= first_stage, if any was built."""
    found = find_staged(build_dir, name, first_stage)
    return found[-1] if found else None


def libuv_version() -> Optional[str]:
    """The installed libuv's version, from pkg-config (None if it cannot say)."""
    return machine.first_line_of(["pkg-config", "--modversion", "libuv"])


def native_label(impl_id: str, version: Optional[str] = None) -> str:
    """The label of a native implementation id ("libuv 1.44.2 (C)")."""
    for known, _, label in NATIVE_PROGRAMS:
        if known == impl_id:
            return label.format(version=version or libuv_version() or "?")
    return impl_id


def native_implementations(build_dir: Path, results: Results) -> list[tuple[Implementation, Path]]:
    """The native C programs that were built (comparisons/native/), each with its binary
    and its implementation (one object per implementation id, shared by its programs).

    They are compared with asyncio on the newest CPython, like the looplab rows.
    A missing binary is a note in the report, not a failure."""
    found = []
    impls: dict[str, Implementation] = {}
    for impl_id, binary_name, label in NATIVE_PROGRAMS:
        binary = find_program(build_dir, binary_name)
        if binary is None:
            results.warnings.append(f"No {build_dir / 'bin' / binary_name}: the "
                                    f"{label.format(version='').replace('  ', ' ')} figures of "
                                    f"{binary_name} were not measured (comparisons/native/).")
            continue
        if impl_id not in impls:
            version = (libuv_version() or "?") if "{version}" in label else None
            impls[impl_id] = Implementation(impl_id, label.format(version=version), "native",
                                            baseline="cpython_asyncio", program=str(binary))
        found.append((impls[impl_id], binary))
    return found


def required_python(module: ast.Module) -> Optional[tuple[int, ...]]:
    """A twin's ``REQUIRES_PYTHON = "3.12"`` as (3, 12), or None if it has none."""
    for statement in module.body:
        if (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
                and any(isinstance(target, ast.Name) and target.id == "REQUIRES_PYTHON"
                        for target in statement.targets)):
            return tuple(int(part) for part in str(statement.value.value).split("."))
    return None


def find_twins(twins_dir: Path = TWINS_DIR) -> list[Workload]:
    """Every twin <twins_dir>/<group>/<name>.py (not _<name>.py: code twins
    share), with its docstring and the Python it requires."""
    workloads = []
    for path in sorted(twins_dir.glob("*/*.py")):
        if path.name.startswith("_"):
            continue
        module = ast.parse(path.read_text())
        workloads.append(Workload(path.stem, path.parent.name, ast.get_docstring(module) or "", path,
                                  required_python(module)))
    return workloads


def python_implementations(newest: pythons.Interpreter,
                           uvloop_host: Optional[pythons.Interpreter]) -> list[Implementation]:
    """asyncio on the newest CPython, then asyncio and uvloop on uvloop's interpreter."""
    asyncio_impl = Implementation(
        "cpython_asyncio", f"CPython {newest.version_str} asyncio", "asyncio",
        interpreter=newest)
    impls = [asyncio_impl]
    if uvloop_host is None:
        return impls
    if os.path.realpath(uvloop_host.path) == os.path.realpath(newest.path):
        host_asyncio = asyncio_impl
    else:
        host_asyncio = Implementation(
            "uvloop_host_asyncio", f"CPython {uvloop_host.version_str} asyncio", "asyncio",
            baseline="cpython_asyncio", interpreter=uvloop_host)
        impls.append(host_asyncio)
    version = pythons.module_version(uvloop_host, "uvloop") or "?"
    impls.append(Implementation(
        "uvloop", f"uvloop {version} (CPython {uvloop_host.version_str})", "uvloop",
        baseline=host_asyncio.id, interpreter=uvloop_host))
    return impls
