#!/usr/bin/env python3
"""Run the C++ benchmarks and their asyncio twins; write the comparison report.

    report.py --build-dir build/release --out build/report
              [--quick] [--python INTERP] [--repetitions N]

What runs, one program at a time (so runs never compete for the cores):

1. every C++ benchmark binary ``<build-dir>/bin/bench_sNN`` (one per stage),
   with Google Benchmark's own repetitions;
2. the native C programs of ``comparisons/native/``, if built:
   ``<build-dir>/bin/epoll_pingpong`` (the raw epoll floor) and
   ``<build-dir>/bin/libuv_pingpong`` (libuv), kind "native";
3. every twin ``comparisons/asyncio/<group>/<workload>.py``
   * under the newest CPython (3.12 or later; ``--python`` or ``$PYTHON``
     choose another) with asyncio's loop, and
   * if some interpreter can import uvloop (``pythons.uvloop_python()``),
     under that interpreter twice, ``--loop asyncio`` and ``--loop uvloop``,
     so that uvloop is only ever set against asyncio on the same interpreter;
4. tcp_echo (``comparisons/tcp_echo.py`` with the client
   ``<build-dir>/bin/echo_client``) against each echo server there is:
   the latest ``<build-dir>/bin/tcp_echo_server_sNN`` (NN >= 04) with
   ``LOOPLAB_SELECTOR=epoll`` and again with ``io_uring``,
   ``<build-dir>/bin/libuv_echo_server``, and ``comparisons/echo/``'s asyncio
   Protocol and streams servers under each Python loop of 3; and the latest
   ``<build-dir>/bin/tcp_echo_coro_server_sNN`` (NN >= 06, one task per
   connection) on epoll with 1 and 10 connections, as the workloads
   ``tcp_echo_coro_1`` and ``_10``, set against asyncio's streams server (its
   ``tcp_echo_1`` and ``_10`` figures, the same runs, are repeated there).

What is missing (a binary not built, no uvloop) is skipped with a note in the
report.  A C++ benchmark ``workload/<backend>`` (backend select, poll, epoll,
io_uring, kqueue; stage 04 on) is a row "looplab stage NN (<backend>)" of that
workload; ``fd_scaling/<backend>/<idle>`` goes to the fd_scaling table and
chart of the latest stage that has it, not to a workload.  A backend-specific
benchmark that reports an error (io_uring unavailable here, say) is a note,
not a failure.

What it writes into ``--out``:

* ``report.md`` and ``index.html`` (the same content; the HTML has its charts
  inlined and needs nothing else); once a stage >= 04 ran, they open with a
  "Targets" section: stage 04's goals (epoll within 1.1× of the raw epoll
  floor and no slower than libuv, io_uring no slower than epoll, tcp_echo_1
  server CPU below libuv's and at most a third of asyncio's) and those of
  stages 05 and 06 (future_resolve and task_sleep0 at least 30× cheaper than
  asyncio), met or not, computed from this run,
* ``summary.json``: ``{workload: {implementation id: ns per op}}`` plus
  ``_targets``, ``_fd_scaling`` and ``_tcp_echo`` (see ``write_summaries``), and
  ``implementations.json``: what each implementation id stands for, with its
  per-workload ``notes`` (the benchmark's ``state.SetLabel`` text, e.g. what a
  stage skips that asyncio does) and, for Python loops, the twins' ``gc``
  setting,
* ``raw/``: every JSON file the benchmark programs wrote,
* ``charts/``: SVG charts (if matplotlib can be imported).

In report.md and index.html a benchmark's label is shown in a "note" column
next to its row, and the header says whether the twins ran with Python's cyclic
gc on (read from the "gc" field of their JSON contexts).

Progress goes to stderr, one line per run.  The exit status is 1 if any run
failed (the report is still written, with the failures listed).
"""
from __future__ import annotations

import argparse
import ast
import base64
import datetime
import html
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pythons

COMPARISONS_DIR = Path(__file__).resolve().parent
TWINS_DIR = COMPARISONS_DIR / "asyncio"
ECHO_DIR = COMPARISONS_DIR / "echo"
TCP_ECHO_DRIVER = COMPARISONS_DIR / "tcp_echo.py"
# asyncio on its default selector (epoll on Linux): the baseline of stage 04's
# kernel-side backends, for the twins of these groups.
ASYNCIO_EPOLL_ID = "cpython_asyncio_epoll"
EPOLL_BASELINE_GROUPS = {"io"}
CPP_TIMEOUT_S = 900
NATIVE_TIMEOUT_S = 300
TWIN_TIMEOUT_S = 300
TCP_TIMEOUT_S = 600
FULL_REPETITIONS = 5
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Selector backends, in the order rows and columns show them. A C++ benchmark
# named "workload/<backend>" is that workload on one backend (from stage 04 on).
BACKENDS = ("select", "poll", "epoll", "io_uring", "kqueue")
FIRST_POLLER_STAGE = 4  # the first stage with more than one selector
# The native C programs (comparisons/native/): (implementation id, binary, label).
NATIVE_PROGRAMS = (("epoll_floor", "epoll_pingpong", "raw epoll floor (C)"),
                   ("libuv", "libuv_pingpong", "libuv {version} (C)"))
# The looplab echo server runs once per backend, chosen with $LOOPLAB_SELECTOR.
ECHO_BACKENDS = ("epoll", "io_uring")
# The coroutine echo server (a task per connection, stage 06 on) runs on epoll,
# with these connection counts, as the workloads tcp_echo_coro_<C>. Its
# like-for-like twin is asyncio's streams server, whose tcp_echo_<C> rows are
# repeated in those tables (see add_streams_rows_to_coro_tables).
CORO_ECHO_PREFIX = "tcp_echo_coro"
CORO_ECHO_CONNECTIONS = (1, 10)
FIRST_TASK_STAGE = 6
# The Python echo servers (comparisons/echo/): (id suffix, script, label suffix).
PYTHON_ECHO_SERVERS = (("protocol", "asyncio_protocol_server.py", "Protocol server"),
                       ("streams", "asyncio_streams_server.py", "streams server"))


# ---------------------------------------------------------------------------
# What is compared


@dataclass
class Implementation:
    """One column of the comparison: a looplab stage, or a Python event loop."""

    id: str                 # stable key, used in summary.json
    label: str              # shown in tables and charts
    kind: str               # "looplab", "native" (plain C), "asyncio" or "uvloop"
    baseline: Optional[str] = None  # id its ratio is computed against
    stage: Optional[int] = None
    interpreter: Optional[pythons.Interpreter] = None
    backend: Optional[str] = None   # a looplab stage on one selector backend ("epoll", ...)
    program: Optional[str] = None   # the native binary or echo server script it runs


@dataclass
class Job:
    """One program run: a C++ benchmark binary, or one twin under one loop."""

    impl: Implementation
    title: str              # progress line, e.g. "cpython 3.13 asyncio call_soon_batch"
    command: List[str]
    raw: Path               # the JSON file the program writes
    timeout: int
    role: str = "benchmark"  # "benchmark" (ns per op) or "tcp_echo" (tcp_echo.py's figures)
    env: Optional[Dict[str, str]] = None  # set in the program's environment
    # Asked just before the run: a reason to skip it (given what ran before), or None.
    skip: Optional[Callable[["Results"], Optional[str]]] = None

    def command_text(self) -> str:
        settings = [f"{name}={value}" for name, value in (self.env or {}).items()]
        return " ".join(settings + self.command)


@dataclass
class Workload:
    """A benchmark name shared by the C++ side and its twin."""

    name: str
    group: str = ""
    description: str = ""
    twin: Optional[Path] = None


@dataclass
class Results:
    """Everything the report shows."""

    impls: Dict[str, Implementation] = field(default_factory=dict)
    workloads: Dict[str, Workload] = field(default_factory=dict)
    ns_per_op: Dict[str, Dict[str, float]] = field(default_factory=dict)
    # {workload: {impl id: label}}: what a benchmark says about itself with
    # Google Benchmark's state.SetLabel(), e.g. what a stage skips that asyncio does.
    notes: Dict[str, Dict[str, str]] = field(default_factory=dict)
    # {impl id: {"on", "off", "unknown"}}: the "gc" field of the twins' JSON contexts.
    python_gc: Dict[str, set] = field(default_factory=dict)
    # {stage impl id: {backend: {idle descriptors: ns per round trip}}}, from the
    # benchmarks fd_scaling/<backend>/<idle>.
    fd_scaling: Dict[str, Dict[str, Dict[int, float]]] = field(default_factory=dict)
    # {tcp_echo_C: {impl id: {"ns_per_request", "requests_per_second",
    #                         "server_cpu_ns_per_request"}}}: what tcp_echo.py measured.
    tcp: Dict[str, Dict[str, Dict[str, float]]] = field(default_factory=dict)
    succeeded: set = field(default_factory=set)  # titles of the jobs that ran
    failures: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)

    def record(self, workload: str, impl: Implementation, ns: float,
               note: Optional[str] = None) -> None:
        self.workloads.setdefault(workload, Workload(workload))
        self.ns_per_op.setdefault(workload, {})[impl.id] = ns
        if note:
            self.notes.setdefault(workload, {})[impl.id] = note

    def backend_implementation(self, stage_impl: Implementation, backend: str) -> Implementation:
        """The implementation "looplab stage NN (<backend>)", made when first asked for.

        A kernel-side backend (epoll, io_uring, kqueue) is compared with asyncio
        on its default selector (epoll here) when that ran; select() with asyncio
        on select(), like the stage's own row."""
        impl_id = f"{stage_impl.id}_{backend}"
        if impl_id not in self.impls:
            baseline = stage_impl.baseline
            if backend != "select" and ASYNCIO_EPOLL_ID in self.impls:
                baseline = ASYNCIO_EPOLL_ID
            self.impls[impl_id] = Implementation(
                impl_id, f"{stage_impl.label} ({backend})", "looplab",
                baseline=baseline, stage=stage_impl.stage, backend=backend)
        return self.impls[impl_id]


# ---------------------------------------------------------------------------
# Finding the programs


def find_cpp_benchmarks(build_dir: Path) -> List[Tuple[int, Path]]:
    """(stage, path) for every bench_sNN binary, in stage order."""
    found = []
    for path in sorted((build_dir / "bin").glob("bench_s[0-9][0-9]")):
        if path.is_file() and os.access(path, os.X_OK):
            found.append((int(path.name[-2:]), path))
    return found


def find_program(build_dir: Path, name: str) -> Optional[Path]:
    """<build-dir>/bin/<name> if it is there and executable."""
    path = build_dir / "bin" / name
    return path if path.is_file() and os.access(path, os.X_OK) else None


def libuv_version() -> Optional[str]:
    """The installed libuv's version, from pkg-config (None if it cannot say)."""
    return first_line_of(["pkg-config", "--modversion", "libuv"])


def native_implementations(build_dir: Path, results: Results) -> List[Tuple[Implementation, Path]]:
    """The native C programs that were built (comparisons/native/), each with its binary.

    They are compared with asyncio on the newest CPython, like the looplab rows.
    A missing binary is a note in the report, not a failure."""
    found = []
    version = None
    for impl_id, binary_name, label in NATIVE_PROGRAMS:
        binary = find_program(build_dir, binary_name)
        if binary is None:
            results.warnings.append(f"No {build_dir / 'bin' / binary_name}: the "
                                    f"{label.format(version='').replace('  ', ' ')} row was not "
                                    "measured (comparisons/native/).")
            continue
        if "{version}" in label:
            version = version or libuv_version() or "?"
        impl = Implementation(impl_id, label.format(version=version), "native",
                              baseline="cpython_asyncio", program=str(binary))
        found.append((impl, binary))
    return found


def find_twins() -> List[Workload]:
    """Every twin comparisons/asyncio/<group>/<name>.py, with its docstring."""
    workloads = []
    for path in sorted(TWINS_DIR.glob("*/*.py")):
        if path.name.startswith("_"):
            continue
        docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
        workloads.append(Workload(path.stem, path.parent.name, docstring, path))
    return workloads


def python_implementations(newest: pythons.Interpreter,
                           uvloop_host: Optional[pythons.Interpreter]) -> List[Implementation]:
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


def native_label(impl_id: str, version: Optional[str] = None) -> str:
    """The label of a native implementation id ("libuv 1.44.2 (C)")."""
    for known, _, label in NATIVE_PROGRAMS:
        if known == impl_id:
            return label.format(version=version or libuv_version() or "?")
    return impl_id


@dataclass
class EchoServer:
    """One server for the tcp_echo workloads: the command that serves, and who it is."""

    impl: Implementation
    title: str              # progress line
    command: List[str]      # prints "PORT n" once listening; --port 0 is in it
    env: Optional[Dict[str, str]] = None
    skip: Optional[Callable[[Results], Optional[str]]] = None
    prefix: Optional[str] = None            # tcp_echo.py --prefix (default tcp_echo)
    connections: Optional[Tuple[int, ...]] = None  # tcp_echo.py --connections


def latest_echo_server(build_dir: Path, name: str = "tcp_echo_server",
                       first_stage: int = FIRST_POLLER_STAGE) -> Optional[Tuple[int, Path]]:
    """(stage, binary) of the latest <name>_sNN, NN >= first_stage, if any was built."""
    found = []
    for path in (build_dir / "bin").glob(f"{name}_s[0-9][0-9]"):
        stage = int(path.name[-2:])
        if stage >= first_stage and path.is_file() and os.access(path, os.X_OK):
            found.append((stage, path))
    return max(found) if found else None


def backend_measured(stage_impl_id: str, backend: str, bench_title: str):
    """A Job.skip test: skip an echo server on `backend` when the stage's own
    benchmark binary ran, measured other backends, but not this one (it said
    the backend is unavailable here, e.g. io_uring blocked by a container)."""
    def skip(results: Results) -> Optional[str]:
        if bench_title not in results.succeeded:
            return None  # no evidence either way: try
        prefix = f"{stage_impl_id}_"
        measured = {impl_id[len(prefix):] for figures in results.ns_per_op.values()
                    for impl_id in figures if impl_id.startswith(prefix)}
        if measured and backend not in measured:
            return (f"{bench_title} measured no {backend} variant (only "
                    f"{', '.join(sorted(measured))}): {backend} seems unavailable here")
        return None
    return skip


def echo_servers(build_dir: Path, python_impls: List[Implementation],
                 results: Results) -> List[EchoServer]:
    """Every tcp_echo server that can run here, in the order they run.

    looplab's latest tcp_echo_server_sNN (NN >= 04) once per backend in
    ECHO_BACKENDS, libuv_echo_server, then both asyncio servers under each
    Python loop (as the twins run: newest CPython's asyncio; asyncio and uvloop
    on uvloop's interpreter). What is missing is a note in the report."""
    servers = []
    looplab = latest_echo_server(build_dir)
    if looplab is None:
        results.warnings.append(f"No {build_dir / 'bin'}/tcp_echo_server_sNN (stage 04 on): "
                                "looplab was not measured on tcp_echo.")
    else:
        stage, binary = looplab
        # The same ids as the stage's per-backend benchmark rows; the tcp_echo tables
        # compare them with asyncio's Protocol server (see tcp_baseline).
        stage_impl = Implementation(f"looplab_s{stage:02d}", f"looplab stage {stage:02d}",
                                    "looplab", baseline="cpython_asyncio", stage=stage)
        for backend in ECHO_BACKENDS:
            impl = results.backend_implementation(stage_impl, backend)
            servers.append(EchoServer(
                impl, f"tcp_echo {binary.name} {backend}", [str(binary), "--port", "0"],
                env={"LOOPLAB_SELECTOR": backend},
                skip=backend_measured(stage_impl.id, backend, f"c++ bench_s{stage:02d}")))
    coro = latest_echo_server(build_dir, "tcp_echo_coro_server", FIRST_TASK_STAGE)
    if coro is None:
        if looplab is not None and looplab[0] >= FIRST_TASK_STAGE:
            results.warnings.append(f"No {build_dir / 'bin'}/tcp_echo_coro_server_sNN (stage "
                                    f"{FIRST_TASK_STAGE:02d} on): {CORO_ECHO_PREFIX} was not "
                                    "measured.")
    else:
        stage, binary = coro
        # Its own id (not a stage or backend row), compared with asyncio's streams
        # server, which is written the same way: a task per connection.
        impl = Implementation(f"looplab_s{stage:02d}_coro",
                              f"looplab stage {stage:02d}, coroutine server (epoll)", "looplab",
                              baseline="cpython_asyncio_streams", stage=stage, backend="epoll",
                              program=str(binary))
        servers.append(EchoServer(
            impl, f"tcp_echo {binary.name} epoll", [str(binary), "--port", "0"],
            env={"LOOPLAB_SELECTOR": "epoll"}, prefix=CORO_ECHO_PREFIX,
            connections=CORO_ECHO_CONNECTIONS))
    libuv_server = find_program(build_dir, "libuv_echo_server")
    if libuv_server is None:
        results.warnings.append(f"No {build_dir / 'bin' / 'libuv_echo_server'}: libuv was not "
                                "measured on tcp_echo.")
    else:
        impl = results.impls.get("libuv") or Implementation(
            "libuv", native_label("libuv"), "native", baseline="cpython_asyncio",
            program=str(libuv_server))
        servers.append(EchoServer(impl, f"tcp_echo {libuv_server.name}",
                                  [str(libuv_server), "--port", "0"]))
    for suffix, script_name, what in PYTHON_ECHO_SERVERS:
        script = ECHO_DIR / script_name
        if not script.is_file():
            results.warnings.append(f"No {script}: it was not measured on tcp_echo.")
            continue
        for py in python_impls:
            loop = "uvloop" if py.kind == "uvloop" else "asyncio"
            # Compared as the twins are: the newest CPython's asyncio Protocol server is
            # the baseline; asyncio's streams server against it; another interpreter's
            # asyncio against the newest's, same server; uvloop against asyncio on its
            # own interpreter, same server.
            if py.id == "cpython_asyncio":
                baseline = None if suffix == "protocol" else "cpython_asyncio_protocol"
            else:
                baseline = f"{py.baseline}_{suffix}"
            impl = Implementation(f"{py.id}_{suffix}", f"{py.label}, {what}", py.kind,
                                  baseline=baseline, interpreter=py.interpreter,
                                  program=str(script))
            servers.append(EchoServer(
                impl, f"tcp_echo cpython {py.interpreter.short_version} {loop} {script.stem}",
                [py.interpreter.path, "-I", str(script), "--loop", loop, "--port", "0"]))
    return servers


def plan_native_jobs(native: List[Tuple[Implementation, Path]], raw_dir: Path,
                     quick: bool, repetitions: int, results: Results) -> List[Job]:
    """One run of each native C program (they run both I/O workloads)."""
    jobs = []
    for impl, binary in native:
        results.impls[impl.id] = impl
        raw = raw_dir / f"{impl.id}.json"
        command = [str(binary), "--out", str(raw), "--repetitions", str(repetitions)]
        if quick:
            command.append("--quick")
        jobs.append(Job(impl, f"native {binary.name}", command, raw, NATIVE_TIMEOUT_S))
    return jobs


def plan_tcp_jobs(servers: List[EchoServer], client: Path, raw_dir: Path,
                  quick: bool, repetitions: int, results: Results) -> List[Job]:
    """One tcp_echo.py run per echo server (it runs tcp_echo_1, _10 and _100)."""
    jobs = []
    for server in servers:
        results.impls.setdefault(server.impl.id, server.impl)
        # Not <impl>--*.json: merge_raw_per_implementation must not fold these into
        # an implementation's benchmark file (libuv.json is libuv_pingpong's).
        raw = raw_dir / f"tcp_echo--{server.impl.id}.json"
        command = [sys.executable, str(TCP_ECHO_DRIVER), "--client", str(client),
                   "--out", str(raw), "--repetitions", str(repetitions),
                   "--name", server.impl.id]
        if quick:
            command.append("--quick")
        if server.prefix:
            command += ["--prefix", server.prefix]
        if server.connections:
            command += ["--connections", ",".join(str(c) for c in server.connections)]
        command += ["--", *server.command]
        jobs.append(Job(server.impl, server.title, command, raw, TCP_TIMEOUT_S,
                        role="tcp_echo", env=server.env, skip=server.skip))
    return jobs


def plan_tcp_echo(build_dir: Path, python_impls: List[Implementation], raw_dir: Path,
                  quick: bool, repetitions: int, results: Results) -> List[Job]:
    """The tcp_echo runs, if the driver and the client are there (else a note)."""
    if not TCP_ECHO_DRIVER.is_file():
        results.warnings.append(f"No {TCP_ECHO_DRIVER}: tcp_echo was not measured.")
        return []
    client = find_program(build_dir, "echo_client")
    if client is None:
        results.warnings.append(f"No {build_dir / 'bin' / 'echo_client'} (the tcp_echo "
                                "client): tcp_echo was not measured.")
        return []
    servers = echo_servers(build_dir, python_impls, results)
    return plan_tcp_jobs(servers, client, raw_dir, quick, repetitions, results)


def plan_jobs(cpp: List[Tuple[int, Path]], twins: List[Workload],
              python_impls: List[Implementation], raw_dir: Path,
              quick: bool, repetitions: int, results: Results,
              native: List[Tuple[Implementation, Path]] = ()) -> List[Job]:
    """The runs, in order: C++ binaries, the native C programs, then each
    workload under each Python loop.

    Running one workload's Python variants back to back means slow drift on the
    machine (other load, clock changes) hits them alike, which keeps their
    ratios honest.
    """
    jobs = []
    for stage, binary in cpp:
        impl = Implementation(f"looplab_s{stage:02d}", f"looplab stage {stage:02d}",
                              "looplab", baseline="cpython_asyncio", stage=stage)
        results.impls[impl.id] = impl
        raw = raw_dir / f"{impl.id}.json"
        command = [str(binary), "--benchmark_format=json", f"--benchmark_out={raw}",
                   f"--benchmark_repetitions={repetitions}",
                   "--benchmark_report_aggregates_only=false"]
        if quick:
            command.append("--benchmark_min_time=0.01")
        jobs.append(Job(impl, f"c++ {binary.name}", command, raw, CPP_TIMEOUT_S))
    jobs += plan_native_jobs(list(native), raw_dir, quick, repetitions, results)
    for impl in python_impls:
        results.impls[impl.id] = impl
    # The io twins run asyncio on select(), to compare like with like against
    # looplab's select() stage; from stage 04 the kernel-side backends are set
    # against asyncio on its default selector (epoll on Linux), run here too.
    newest = next((impl for impl in python_impls if impl.id == "cpython_asyncio"), None)
    asyncio_epoll = None
    if newest is not None and any(stage >= FIRST_POLLER_STAGE for stage, _ in cpp):
        asyncio_epoll = Implementation(
            ASYNCIO_EPOLL_ID, f"{newest.label} (epoll)", "asyncio",
            baseline="cpython_asyncio", interpreter=newest.interpreter)
        results.impls[asyncio_epoll.id] = asyncio_epoll
    for workload in twins:
        results.workloads[workload.name] = workload
        variants = [(impl, []) for impl in python_impls]
        if asyncio_epoll is not None and workload.group in EPOLL_BASELINE_GROUPS:
            variants.insert(1, (asyncio_epoll, ["--selector", "default"]))
        for impl, extra in variants:
            loop = "uvloop" if impl.kind == "uvloop" else "asyncio"
            raw = raw_dir / f"{impl.id}--{workload.name}.json"
            # -I: isolated mode, so PYTHONASYNCIODEBUG and friends cannot creep in.
            command = [impl.interpreter.path, "-I", str(workload.twin), "--loop", loop,
                       "--repetitions", str(repetitions), "--out", str(raw)] + extra
            if quick:
                command.append("--quick")
            title = f"cpython {impl.interpreter.short_version} {loop} {workload.name}"
            if extra:
                title += " (epoll)"
            jobs.append(Job(impl, title, command, raw, TWIN_TIMEOUT_S))
    return jobs


# ---------------------------------------------------------------------------
# Running them and reading Google Benchmark JSON


# Google Benchmark's own fields of a benchmark entry; any other number in an
# entry is a counter (tcp_echo.py writes server_cpu_ns_per_request, requests_per_second).
GBENCH_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                 "repetitions", "repetition_index", "threads", "iterations", "real_time",
                 "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "label",
                 "error_occurred", "error_message", "skipped", "skip_message", "big_o", "rms"}
# Name components Google Benchmark appends for options, not arguments.
GBENCH_OPTION = re.compile(r"^(real_time|process_time|manual_time|"
                           r"(iterations|repeats|threads|min_time|min_warmup_time):.*)$")


def benchmark_key(entry: dict) -> str:
    """An entry's benchmark name without Google Benchmark's option suffixes:
    "reader_pingpong/epoll", "fd_scaling/select/1000", "call_soon_batch"."""
    parts = (entry.get("run_name") or entry["name"]).split("/")
    return "/".join([parts[0]] + [part for part in parts[1:] if not GBENCH_OPTION.match(part)])


def metrics_by_benchmark(document: dict) -> Tuple[Dict[str, Dict[str, float]], Dict[str, str]]:
    """({benchmark: {field: value}}, {benchmark: error}) from one Google Benchmark JSON document.

    The fields are real_time and cpu_time in ns, and any counters. Each is the
    "median" aggregate's when there is one, else the median of the plain
    iteration runs (a single one when there were no repetitions). A benchmark
    that reported an error (or was skipped) is in the second dict instead.
    """
    iterations: Dict[str, List[dict]] = {}
    medians: Dict[str, dict] = {}
    errors: Dict[str, str] = {}
    for entry in document.get("benchmarks", []):
        key = benchmark_key(entry)
        if entry.get("error_occurred") or entry.get("skipped"):
            errors[key] = str(entry.get("error_message") or entry.get("skip_message") or "skipped")
        elif entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[key] = entry
        else:
            iterations.setdefault(key, []).append(entry)

    def value(entry: dict, name: str) -> float:
        if name in ("real_time", "cpu_time"):
            return entry[name] * TIME_UNIT_NS[entry.get("time_unit", "ns")]
        return float(entry[name])

    figures: Dict[str, Dict[str, float]] = {}
    for key in list(iterations) + [key for key in medians if key not in iterations]:
        if key in errors:
            continue
        runs, median = iterations.get(key, []), medians.get(key)
        names = {name for entry in runs + ([median] if median else []) for name, number
                 in entry.items() if name in ("real_time", "cpu_time") or
                 (name not in GBENCH_FIELDS and isinstance(number, (int, float))
                  and not isinstance(number, bool))}
        figures[key] = {}
        for name in sorted(names):
            if median is not None and name in median:
                figures[key][name] = value(median, name)
            elif any(name in entry for entry in runs):
                figures[key][name] = statistics.median(
                    value(entry, name) for entry in runs if name in entry)
    return figures, errors


def labels_by_benchmark(document: dict) -> Dict[str, str]:
    """{benchmark: label} from one Google Benchmark JSON document.

    A benchmark that calls ``state.SetLabel(text)`` gets a "label" field in each
    of its entries; benchmarks that do not (and older binaries) have none.
    """
    labels: Dict[str, str] = {}
    for entry in document.get("benchmarks", []):
        label = (entry.get("label") or "").strip()
        if label:
            labels.setdefault(benchmark_key(entry), label)
    return labels


@dataclass
class Outcome:
    """What one successful run produced."""

    metrics: Dict[str, Dict[str, float]]  # {benchmark: {"real_time": ns, ...}}
    labels: Dict[str, str]
    errors: Dict[str, str]                # {benchmark: why it did not run}
    context: dict


def run_job(job: Job) -> Outcome:
    """Run one program; return what it measured, or raise RuntimeError with the reason."""
    env = {**os.environ, **job.env} if job.env else None
    try:
        result = subprocess.run(job.command, capture_output=True, text=True,
                                errors="replace", timeout=job.timeout, env=env)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"timed out after {job.timeout} s") from None
    except OSError as error:
        raise RuntimeError(str(error)) from None
    if result.returncode != 0:
        raise RuntimeError(f"exit status {result.returncode}\n{result.stderr.strip()}")
    return read_outcome(job, result.stderr)


def read_outcome(job: Job, stderr: str = "") -> Outcome:
    """What the JSON file a job wrote says, or RuntimeError."""
    try:
        document = json.loads(job.raw.read_text())
        metrics, errors = metrics_by_benchmark(document)
        labels = labels_by_benchmark(document)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RuntimeError(f"unreadable output {job.raw}: {error}\n{stderr.strip()}") from None
    if not metrics and not errors:
        raise RuntimeError(f"no benchmarks in {job.raw}")
    return Outcome(metrics, labels, errors, document.get("context", {}))


def backend_of(key: str) -> Optional[str]:
    """"epoll" for "reader_pingpong/epoll" or "fd_scaling/epoll/100", else None."""
    parts = key.split("/")
    return parts[1] if len(parts) > 1 and parts[1] in BACKENDS else None


def fd_scaling_point(key: str) -> Optional[Tuple[str, int]]:
    """(backend, idle descriptors) for "fd_scaling/<backend>/<idle>" ("idle:100" too), else None."""
    parts = key.split("/")
    if len(parts) != 3 or parts[0] != "fd_scaling" or parts[1] not in BACKENDS:
        return None
    try:
        return parts[1], int(parts[2].rsplit(":", 1)[-1])
    except ValueError:
        return None


def record_benchmarks(job: Job, outcome: Outcome, results: Results) -> List[str]:
    """Put a benchmark program's figures into `results`; return what it did not
    measure that it should have (its errors, except on one backend only).

    From a looplab binary: "workload" is the stage's row, "workload/<backend>"
    the row of "looplab stage NN (<backend>)", "fd_scaling/<backend>/<idle>"
    goes to results.fd_scaling. Any other "name/arg" counts as workload "name"
    (the median over its arguments).
    """
    folded: Dict[str, List[float]] = {}
    # {backend: [(benchmark, why not)]}: what a backend could not measure here.
    unavailable: Dict[str, List[Tuple[str, str]]] = {}
    for key, metrics in outcome.metrics.items():
        if "real_time" not in metrics:
            continue
        ns, note = metrics["real_time"], outcome.labels.get(key)
        point = fd_scaling_point(key) if job.impl.kind == "looplab" else None
        backend = backend_of(key) if job.impl.kind == "looplab" else None
        if backend is not None and note in BACKENDS and note != backend:
            # The label is the selector that ran: the loop fell back from an
            # unavailable backend (io_uring blocked, say) to another one.
            unavailable.setdefault(backend, []).append(
                (key, f"it ran on {note} instead (the loop fell back)"))
        elif point is not None:
            results.fd_scaling.setdefault(job.impl.id, {}).setdefault(point[0], {})[point[1]] = ns
        elif backend is not None and key.count("/") == 1:
            impl = results.backend_implementation(job.impl, backend)
            results.record(key.split("/")[0], impl, ns, note if note != backend else None)
        else:
            folded.setdefault(key.split("/")[0], []).append(ns)
    for workload, values in folded.items():
        note = next((label for key, label in outcome.labels.items()
                     if key.split("/")[0] == workload), None)
        results.record(workload, job.impl, statistics.median(values), note)
    problems = []
    for key, message in sorted(outcome.errors.items()):
        if job.impl.kind == "looplab" and backend_of(key) is not None:
            unavailable.setdefault(backend_of(key), []).append((key, message))
        else:
            problems.append(f"{key}: {message}")
    for backend, errors in unavailable.items():
        # One backend cannot run here (io_uring in a container, say): a note, not a failure.
        (key, message), more = sorted(errors)[0], len(errors) - 1
        others = f" and {more} more {backend} benchmark{'s' if more > 1 else ''}" if more else ""
        results.warnings.append(f"{job.title}: {backend} was not measured ({key}{others}): "
                                f"{message}")
    return problems


def record_tcp_echo(job: Job, outcome: Outcome, results: Results) -> List[str]:
    """Put tcp_echo.py's figures (tcp_echo_1, _10, _100) into `results`."""
    for key, metrics in outcome.metrics.items():
        wall = metrics.get("real_time")
        if not wall:
            continue
        workload = key.split("/")[0]
        cpu = metrics.get("server_cpu_ns_per_request", metrics.get("cpu_time"))
        figures = {"ns_per_request": wall,
                   "requests_per_second": metrics.get("requests_per_second", 1e9 / wall)}
        if cpu is not None:
            figures["server_cpu_ns_per_request"] = cpu
        if metrics.get("server_user_cpu_ns_per_request") is not None:
            figures["server_user_cpu_ns_per_request"] = metrics["server_user_cpu_ns_per_request"]
        results.tcp.setdefault(workload, {})[job.impl.id] = figures
        results.record(workload, job.impl, wall)
        results.workloads[workload].group = "tcp_echo"
    return [f"{key}: {message}" for key, message in sorted(outcome.errors.items())]


def add_streams_rows_to_coro_tables(results: Results) -> None:
    """Repeat asyncio's streams-server rows of tcp_echo_<C> in tcp_echo_coro_<C>.

    looplab's coroutine server is measured as tcp_echo_coro_<C>; its twin,
    asyncio's streams server, was measured as tcp_echo_<C> by the same driver
    with the same client and request counts, so those figures are set beside
    it rather than measured twice."""
    for workload in list(results.tcp):
        if not workload.startswith(f"{CORO_ECHO_PREFIX}_"):
            continue
        source = f"tcp_echo_{workload[len(CORO_ECHO_PREFIX) + 1:]}"
        for impl_id, figures in results.tcp.get(source, {}).items():
            if impl_id.endswith("_streams") and impl_id in results.impls:
                results.tcp[workload][impl_id] = figures
                results.record(workload, results.impls[impl_id], figures["ns_per_request"])


def progress_text(job: Job, outcome: Outcome) -> str:
    """The end of a progress line: what the run measured."""
    if job.role == "tcp_echo":
        return ", ".join(
            f"{key} {format_ns(metrics['real_time'])} ns/req (server CPU "
            f"{format_ns(metrics.get('server_cpu_ns_per_request', metrics.get('cpu_time', 0)))})"
            for key, metrics in outcome.metrics.items() if "real_time" in metrics)
    figures = {key: metrics["real_time"] for key, metrics in outcome.metrics.items()
               if "real_time" in metrics}
    if len(figures) == 1:
        (ns,) = figures.values()
        return f"{format_ns(ns)} ns/op"
    return ", ".join(f"{name} {format_ns(ns)}" for name, ns in figures.items()) + " ns/op"


def run_all(jobs: List[Job], results: Results,
            run: Optional[Callable[[Job], Outcome]] = None) -> None:
    """Run every job (with `run`, default run_job), printing one progress line each to stderr."""
    run = run or run_job
    for step, job in enumerate(jobs, start=1):
        print(f"[{step}/{len(jobs)}] {job.title} ... ", end="", file=sys.stderr, flush=True)
        reason = job.skip(results) if job.skip else None
        if reason:
            print("skipped", file=sys.stderr)
            results.warnings.append(f"{job.title}: skipped: {reason}.")
            continue
        try:
            outcome = run(job)
        except RuntimeError as error:
            print("FAILED", file=sys.stderr)
            results.failures.append(f"{job.title}: {error}\n  command: {job.command_text()}")
            continue
        results.succeeded.add(job.title)
        record = record_tcp_echo if job.role == "tcp_echo" else record_benchmarks
        problems = record(job, outcome, results)
        if problems:
            results.failures.append(f"{job.title}: " + "; ".join(problems)
                                    + f"\n  command: {job.command_text()}")
        if job.impl.id == "libuv" and outcome.context.get("libuv_version"):
            job.impl.label = native_label("libuv", str(outcome.context["libuv_version"]))
        if job.impl.interpreter is not None and job.role == "benchmark":
            # gbench.py writes "gc": "on"|"off"; twins from before it did not.
            results.python_gc.setdefault(job.impl.id, set()).add(
                str(outcome.context.get("gc", "unknown")))
        print(progress_text(job, outcome) + (" (with errors)" if problems else ""),
              file=sys.stderr)


def sort_implementations(results: Results) -> None:
    """Table order: looplab stages, each followed by its backends; the native
    programs; then the Python loops in the order they were planned."""
    def key(item: Tuple[int, Implementation]):
        index, impl = item
        if impl.kind == "looplab":
            backend = -1 if impl.backend is None else (
                BACKENDS.index(impl.backend) if impl.backend in BACKENDS else len(BACKENDS))
            return (0, impl.stage or 0, backend, index)
        return (1 if impl.kind == "native" else 2, 0, 0, index)
    ordered = sorted(enumerate(results.impls.values()), key=key)
    results.impls = {impl.id: impl for _, impl in ordered}


def merge_raw_per_implementation(raw_dir: Path, results: Results) -> None:
    """Also write raw/<impl>.json holding all of an implementation's twins, so
    Google Benchmark's compare.py can diff a whole stage against it at once."""
    for impl in results.impls.values():
        parts = sorted(raw_dir.glob(f"{impl.id}--*.json"))
        if not parts:
            continue
        documents = [json.loads(part.read_text()) for part in parts]
        merged = {"context": documents[0]["context"],
                  "benchmarks": [entry for doc in documents for entry in doc["benchmarks"]]}
        (raw_dir / f"{impl.id}.json").write_text(json.dumps(merged, indent=2) + "\n")


# ---------------------------------------------------------------------------
# The machine, the compilers, the interpreters


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_total() -> str:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def cpu_count() -> str:
    total = os.cpu_count() or 0
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
        if usable != total:
            return f"{total} ({usable} usable by this process)"
    return str(total)


def read_cmake_cache(build_dir: Path) -> Dict[str, str]:
    """NAME -> value for every entry of <build-dir>/CMakeCache.txt (empty if none)."""
    entries = {}
    try:
        text = (build_dir / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return entries
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z_][\w.+-]*):[A-Z_]+=(.*)$", line)
        if match:
            entries[match[1]] = match[2]
    return entries


def first_line_of(command: List[str]) -> Optional[str]:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = result.stdout.strip().splitlines()
    return lines[0] if result.returncode == 0 and lines else None


def environment(build_dir: Path, quick: bool, repetitions: int,
                python_impls: List[Implementation]) -> List[Tuple[str, str]]:
    """The header of the report: (label, value) rows."""
    cache = read_cmake_cache(build_dir)
    compiler = cache.get("CMAKE_CXX_COMPILER")
    if compiler:
        version = first_line_of([compiler, "--version"]) or "(did not answer --version)"
        compiler_text = f"{version} ({compiler})"
    else:
        compiler_text = f"unknown (no CMAKE_CXX_COMPILER in {build_dir / 'CMakeCache.txt'})"
    rows = [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("machine", f"{cpu_model()}, {cpu_count()} CPUs, {memory_total()} RAM"),
        ("kernel", f"{platform.system()} {platform.release()}"),
        ("C++ compiler", compiler_text),
        ("build type", f"{cache.get('CMAKE_BUILD_TYPE') or 'unknown'} ({build_dir})"),
    ]
    seen = set()
    for impl in python_impls:
        interpreter = impl.interpreter
        if interpreter.path in seen:
            continue
        seen.add(interpreter.path)
        role = "newest CPython" if impl.id == "cpython_asyncio" else "uvloop's interpreter"
        rows.append((role, f"CPython {interpreter.version_str} ({interpreter.path})"))
    uvloop = [impl for impl in python_impls if impl.kind == "uvloop"]
    rows.append(("uvloop", uvloop[0].label if uvloop else "not found on this machine"))
    mode = "quick (smoke test: small batches, 1 repetition)" if quick else "full"
    rows.append(("mode", f"{mode}; {repetitions} repetition(s), median reported"))
    return rows


def program_rows(native: List[Tuple[Implementation, Path]], tcp_jobs: List[Job],
                 results: Results) -> List[Tuple[str, str]]:
    """Header rows: which native programs and which tcp_echo servers were run."""
    rows = [("native programs", "; ".join(f"{impl.label} ({binary})" for impl, binary in native)
             if native else "none built (comparisons/native/)")]
    if tcp_jobs:
        client = tcp_jobs[0].command[tcp_jobs[0].command.index("--client") + 1]
        rows.append(("tcp_echo", f"{len(tcp_jobs)} echo server runs planned (the tcp_echo "
                                 "section shows those that ran), driven by "
                                 f"{os.path.relpath(TCP_ECHO_DRIVER, COMPARISONS_DIR.parent)} "
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
    config_args = first_line_of([interpreter.path, "-c",
                                 "import sysconfig; print(sysconfig.get_config_var('CONFIG_ARGS'))"])
    if config_args is None or "--enable-optimizations" in config_args:
        return None
    return (f"CPython {interpreter.version_str} ({interpreter.path}) was configured without "
            "--enable-optimizations (no profile-guided optimization; pyenv's default), so "
            "asyncio on it is slower than on a distribution's or python.org's build, and the "
            "ratios against it are larger.  For a fairer baseline build it with "
            "PYTHON_CONFIGURE_OPTS='--enable-optimizations --with-lto'.")


def cpp_context_warnings(raw_dir: Path) -> List[str]:
    """Warnings Google Benchmark itself would print: debug library, CPU scaling."""
    warnings = []
    for path in sorted(raw_dir.glob("looplab_s*.json")):
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


# ---------------------------------------------------------------------------
# Figures into words


def format_ns(ns: float) -> str:
    if ns >= 100:
        return f"{ns:,.0f}"
    if ns >= 10:
        return f"{ns:.1f}"
    return f"{ns:.2f}"


def ratio_text(ratio: float) -> str:
    """baseline time / this time, as "62.3× faster" or "1.4× slower"."""
    if ratio >= 1:
        return f"{ratio:,.0f}× faster" if ratio >= 100 else f"{ratio:.1f}× faster"
    return f"{1 / ratio:.1f}× slower"


def table_rows(workload: str, results: Results) -> List[Tuple[str, str, str, str, str]]:
    """(implementation, ns/op, ratio, compared with, note) for one workload."""
    figures = results.ns_per_op.get(workload, {})
    rows = []
    for impl in results.impls.values():
        if impl.id not in figures:
            continue
        ns = figures[impl.id]
        baseline = impl.baseline
        if baseline == ASYNCIO_EPOLL_ID and baseline not in figures:
            # The twin ran only on asyncio's default selector, which is epoll.
            baseline = results.impls[ASYNCIO_EPOLL_ID].baseline
        if baseline is None:
            ratio, against = "1× (baseline)", ""
        elif baseline in figures:
            ratio = ratio_text(figures[baseline] / ns)
            against = results.impls[baseline].label
            if impl.kind == "uvloop":
                against += " (same interpreter)"
        else:
            ratio, against = "n/a", f"{results.impls[baseline].label} did not run"
        note = results.notes.get(workload, {}).get(impl.id, "")
        rows.append((impl.label, format_ns(ns), ratio, against, note))
    return rows


def cpu_ratio_text(ratio: float) -> str:
    """baseline CPU / this CPU, as "3.1× less CPU" or "1.2× more CPU"."""
    if ratio >= 1:
        return f"{ratio:,.0f}× less CPU" if ratio >= 100 else f"{ratio:.1f}× less CPU"
    return f"{1 / ratio:.1f}× more CPU"


def tcp_baseline(impl: Implementation, figures: Dict[str, dict],
                 workload: str = "") -> Optional[str]:
    """What a tcp_echo row is compared with: its own baseline, except that a row
    compared with "cpython_asyncio" (looplab, native) is compared with asyncio's
    Protocol server on the newest CPython, the lowest-level asyncio server.

    In the tcp_echo_coro_C tables asyncio's streams server on the newest CPython
    is the baseline: looplab's coroutine server is compared with it, and the
    other streams rows with their usual baselines (uvloop with asyncio on its
    own interpreter)."""
    if workload.startswith(f"{CORO_ECHO_PREFIX}_"):
        return None if impl.id == "cpython_asyncio_streams" else impl.baseline
    if impl.kind in ("looplab", "native"):
        return "cpython_asyncio_protocol"  # whichever selector the loop itself uses
    if impl.baseline is not None and impl.baseline not in figures \
            and f"{impl.baseline}_protocol" in figures:
        return f"{impl.baseline}_protocol"
    return impl.baseline


def tcp_rows(workload: str, results: Results) -> List[Tuple[str, str, str, str, str, str, str]]:
    """(implementation, ns/request, requests/s, server CPU ns/request, of which in
    user space, server CPU ratio, compared with) for one tcp_echo workload."""
    figures = results.tcp.get(workload, {})
    rows = []
    for impl in results.impls.values():
        if impl.id not in figures:
            continue
        mine = figures[impl.id]
        cpu = mine.get("server_cpu_ns_per_request")
        baseline = tcp_baseline(impl, figures, workload)
        base_cpu = figures.get(baseline, {}).get("server_cpu_ns_per_request") if baseline else None
        if baseline is None:
            ratio, against = "1× (baseline)", ""
        elif baseline not in figures:
            label = results.impls[baseline].label if baseline in results.impls else baseline
            ratio, against = "n/a", f"{label} did not run"
        elif cpu and base_cpu:
            ratio, against = cpu_ratio_text(base_cpu / cpu), results.impls[baseline].label
            if impl.kind == "uvloop":
                against += " (same interpreter)"
        else:
            ratio, against = "n/a", results.impls[baseline].label
        user = mine.get("server_user_cpu_ns_per_request")
        rows.append((impl.label, format_ns(mine["ns_per_request"]),
                     f"{mine['requests_per_second']:,.0f}",
                     format_ns(cpu) if cpu is not None else "n/a",
                     format_ns(user) if user is not None else "n/a", ratio, against))
    return rows


def fd_scaling_latest(results: Results) -> Optional[str]:
    """The id of the latest looplab stage that measured fd_scaling, if any."""
    stages = [impl_id for impl_id in results.fd_scaling
              if impl_id in results.impls and results.fd_scaling[impl_id]]
    return max(stages, key=lambda impl_id: results.impls[impl_id].stage or 0) if stages else None


def fd_scaling_backends(series: Dict[str, Dict[int, float]]) -> List[str]:
    return sorted(series, key=lambda b: BACKENDS.index(b) if b in BACKENDS else len(BACKENDS))


def fd_scaling_rows(results: Results) -> Tuple[List[str], List[List[str]]]:
    """(header, rows) of the fd_scaling table: idle descriptors down, backends across."""
    series = results.fd_scaling[fd_scaling_latest(results)]
    backends = fd_scaling_backends(series)
    idles = sorted({idle for points in series.values() for idle in points})
    rows = [[f"{idle:,}"] + [format_ns(series[b][idle]) if idle in series[b] else "—"
                             for b in backends] for idle in idles]
    return ["idle descriptors"] + backends, rows


# ---------------------------------------------------------------------------
# Targets: what stages 04 to 06 set out to reach, checked on this run's figures


@dataclass
class TargetSpec:
    """A ratio of two implementations on one workload, with the bound it should meet.

    An operand is ("looplab", backend): looplab stage NN on that backend (the
    latest stage >= 04 that has every looplab operand; backend "" is the
    stage's own row, on its default selector), or ("impl", id)."""

    id: str
    workload: str
    measure: str             # "wall": ns per op; "server_cpu": tcp_echo server CPU per request
    numerator: Tuple[str, str]
    denominator: Tuple[str, str]
    op: str                  # "<=", "<" or ">="
    limit: float


TARGET_SPECS = [
    spec
    for workload in ("reader_pingpong", "reader_pingpong_idle1000")
    for spec in (
        TargetSpec(f"{workload}:epoll/floor", workload, "wall",
                   ("looplab", "epoll"), ("impl", "epoll_floor"), "<=", 1.1),
        TargetSpec(f"{workload}:epoll/libuv", workload, "wall",
                   ("looplab", "epoll"), ("impl", "libuv"), "<=", 1.0),
        TargetSpec(f"{workload}:io_uring/epoll", workload, "wall",
                   ("looplab", "io_uring"), ("looplab", "epoll"), "<=", 1.0),
    )
] + [
    TargetSpec("tcp_echo_1:server_cpu:looplab/libuv", "tcp_echo_1", "server_cpu",
               ("looplab", "epoll"), ("impl", "libuv"), "<", 1.0),
    TargetSpec("tcp_echo_1:server_cpu:asyncio/looplab", "tcp_echo_1", "server_cpu",
               ("impl", "cpython_asyncio_protocol"), ("looplab", "epoll"), ">=", 3.0),
    # The same two on the user-space share alone: the server's own code,
    # without the kernel's TCP stack, which every server pays alike.
    TargetSpec("tcp_echo_1:server_user_cpu:looplab/libuv", "tcp_echo_1", "server_user_cpu",
               ("looplab", "epoll"), ("impl", "libuv"), "<", 1.0),
    TargetSpec("tcp_echo_1:server_user_cpu:asyncio/looplab", "tcp_echo_1", "server_user_cpu",
               ("impl", "cpython_asyncio_protocol"), ("looplab", "epoll"), ">=", 3.0),
] + [
    # Stages 05 and 06: how many times more a future's round trip, and a
    # task's step, cost asyncio than looplab's default selector row.
    TargetSpec(f"{workload}:asyncio/looplab", workload, "wall",
               ("impl", "cpython_asyncio"), ("looplab", ""), ">=", 30.0)
    for workload in ("future_resolve", "task_sleep0")
]

OP_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥"}
MEASURE_WORDS = {"wall": "ns per op (wall)", "server_cpu": "server CPU ns per request",
                 "server_user_cpu": "server user-space CPU ns per request"}


@dataclass
class Target:
    """A TargetSpec checked against this run."""

    spec: TargetSpec
    numerator: str          # the implementation ids, or what they would be
    denominator: str
    numerator_label: str
    denominator_label: str
    value: Optional[float] = None
    stage: Optional[int] = None
    missing: str = ""       # why there is no value

    @property
    def met(self) -> Optional[bool]:
        if self.value is None:
            return None
        return {"<=": self.value <= self.spec.limit, "<": self.value < self.spec.limit,
                ">=": self.value >= self.spec.limit}[self.spec.op]

    @property
    def status(self) -> str:
        if self.met is None:
            return f"not measured ({self.missing})"
        return "met" if self.met else "not met"

    @property
    def goal(self) -> str:
        return f"{OP_SYMBOLS[self.spec.op]}\u00a0{self.spec.limit:g}×"  # no break after ≤

    @property
    def what(self) -> str:
        measure = {"server_cpu": " server CPU per request",
                   "server_user_cpu": " server user-space CPU per request"}.get(
                       self.spec.measure, "")
        return (f"{self.spec.workload}{measure}: {self.numerator_label} / "
                f"{self.denominator_label}")

    @property
    def text(self) -> str:
        value = "n/a" if self.value is None else f"{self.value:.2f}×"
        return f"{self.what} = {value} (target {self.goal}): {self.status}"

    def as_json(self) -> dict:
        return {"id": self.spec.id, "workload": self.spec.workload,
                "measure": self.spec.measure, "numerator": self.numerator,
                "denominator": self.denominator, "value": None if self.value is None
                else round(self.value, 4), "op": self.spec.op, "limit": self.spec.limit,
                "met": self.met, "stage": self.stage, "text": self.text}


def target_figures(spec: TargetSpec, results: Results) -> Dict[str, float]:
    if spec.measure in ("server_cpu", "server_user_cpu"):
        field = f"{spec.measure}_ns_per_request"
        return {impl_id: figures[field]
                for impl_id, figures in results.tcp.get(spec.workload, {}).items()
                if field in figures}
    return results.ns_per_op.get(spec.workload, {})


def poller_stages(results: Results) -> List[int]:
    """Every looplab stage >= 04 that this report knows, latest first."""
    return sorted({impl.stage for impl in results.impls.values() if impl.kind == "looplab"
                   and impl.stage is not None and impl.stage >= FIRST_POLLER_STAGE},
                  reverse=True)


def check_target(spec: TargetSpec, results: Results) -> Target:
    figures = target_figures(spec, results)
    stages = poller_stages(results)

    def resolve(operand: Tuple[str, str], stage: Optional[int]) -> Tuple[str, str]:
        kind, name = operand
        if kind == "looplab":
            suffix, backend = (f"_{name}", f" ({name})") if name else ("", "")
            if stage is None:
                return f"looplab_sNN{suffix}", f"looplab stage ≥ {FIRST_POLLER_STAGE:02d}{backend}"
            return f"looplab_s{stage:02d}{suffix}", f"looplab stage {stage:02d}{backend}"
        if name in results.impls:
            return name, results.impls[name].label
        return name, native_label(name) if name in {n for n, _, _ in NATIVE_PROGRAMS} else name

    def present(stage: Optional[int]) -> bool:
        return all(resolve(operand, stage)[0] in figures
                   for operand in (spec.numerator, spec.denominator))

    # The latest stage that has the rows; if none has them, name the latest.
    stage = next((stage for stage in stages if present(stage)), stages[0] if stages else None)
    (num, num_label), (den, den_label) = resolve(spec.numerator, stage), \
        resolve(spec.denominator, stage)
    target = Target(spec, num, den, num_label, den_label, stage=stage)
    if stage is None and "looplab" in (spec.numerator[0], spec.denominator[0]):
        target.missing = f"no looplab stage ≥ {FIRST_POLLER_STAGE:02d} ran"
    elif present(stage) and figures[den] > 0:
        target.value = figures[num] / figures[den]
    elif present(stage):
        target.missing = f"{den_label}'s figure is 0: the run was too short to measure it"
    else:
        ran = {impl_id for by_impl in results.ns_per_op.values() for impl_id in by_impl}
        target.missing = "; ".join(
            f"{label} did not measure {spec.workload}" if impl_id in ran else f"{label} did not run"
            for impl_id, label in ((num, num_label), (den, den_label)) if impl_id not in figures)
    return target


def check_targets(results: Results) -> List[Target]:
    """Every target, or none when no looplab stage >= 04 ran (they are its goals)."""
    if not poller_stages(results):
        return []
    return [check_target(spec, results) for spec in TARGET_SPECS]


def has_notes(workload: str, results: Results) -> bool:
    return bool(results.notes.get(workload))


def gc_reading_note(results: Results) -> str:
    """The "how to read this" line about the Python twins' gc."""
    state = python_gc_state(results)
    if state == "on":
        return ("The Python twins ran with CPython's cyclic garbage collector on, as real "
                "programs run: gc traversing the queued Handles is part of what a workload "
                "costs on CPython (comparisons/asyncio/gbench.py --no-gc turns it off).")
    if state == "off":
        return ("The Python twins ran with CPython's cyclic garbage collector off during each "
                "timed batch (gbench.py --no-gc), which real programs do not do: their "
                "times leave out what gc costs them.")
    return f"The Python twins' cyclic garbage collector: {python_gc_text(results)}."


# ---------------------------------------------------------------------------
# Charts (optional: need matplotlib)


KIND_COLOURS = {"looplab": "#2b6ca3", "native": "#3d8c40", "asyncio": "#8c8c8c",
                "uvloop": "#d9822b"}
# fd_scaling: one line per backend.
BACKEND_STYLES = {"select": ("#c0392b", "o"), "poll": ("#8e44ad", "v"),
                  "epoll": ("#2b6ca3", "s"), "io_uring": ("#2a9d8f", "D"),
                  "kqueue": ("#d9822b", "^")}
REFERENCE_LINE_STYLES = ["--", ":", "-.", (0, (5, 1, 1, 1)), (0, (3, 1, 1, 1, 1, 1)),
                         (0, (1, 2)), (0, (8, 2))]


def load_pyplot():
    """matplotlib.pyplot with the Agg backend, or None if matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"     # text stays text: small files
    matplotlib.rcParams["svg.hashsalt"] = "looplab"  # stable ids between runs
    import matplotlib.pyplot as pyplot
    return pyplot


def bar_chart(pyplot, workload: str, results: Results, path: Path) -> None:
    """Horizontal bars of ns/op per implementation, log scale."""
    figures = results.ns_per_op[workload]
    impls = [impl for impl in results.impls.values() if impl.id in figures]
    bars(pyplot, workload, impls, [figures[impl.id] for impl in impls],
         "ns per operation (log scale; shorter is faster)", path)


def bars(pyplot, title: str, impls: List[Implementation], values: List[float], xlabel: str,
         path: Path) -> None:
    """Horizontal bars, one per implementation in table order, log scale."""
    figure, axes = pyplot.subplots(figsize=(7.5, 0.45 * len(impls) + 1.3))
    positions = range(len(impls))
    axes.barh(positions, values, color=[KIND_COLOURS[impl.kind] for impl in impls])
    axes.set_yticks(list(positions))
    axes.set_yticklabels([impl.label for impl in impls])
    axes.invert_yaxis()  # first implementation on top, as in the table
    axes.set_xscale("log")
    axes.set_xlim(min(values) / 3, max(values) * 6)
    for position, value in zip(positions, values):
        axes.text(value * 1.08, position, f"{format_ns(value)} ns", va="center", fontsize=9)
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def stage_chart(pyplot, workload: str, results: Results, path: Path) -> bool:
    """ns/op of a workload across looplab stages, with the Python loops as
    reference lines.  Drawn only when more than one stage has the workload.
    A stage's point is its own row (its default selector), not its per-backend rows."""
    figures = results.ns_per_op[workload]
    stages = [impl for impl in results.impls.values()
              if impl.kind == "looplab" and impl.backend is None and impl.id in figures]
    if len(stages) < 2:
        return False
    figure, axes = pyplot.subplots(figsize=(7.5, 3.8))
    axes.plot([impl.stage for impl in stages], [figures[impl.id] for impl in stages],
              marker="o", color=KIND_COLOURS["looplab"], label="looplab")
    references = [impl for impl in results.impls.values()
                  if impl.kind != "looplab" and impl.id in figures]
    for impl, style in zip(references, itertools.cycle(REFERENCE_LINE_STYLES)):
        axes.axhline(figures[impl.id], linestyle=style, linewidth=1.2,
                     color=KIND_COLOURS[impl.kind], label=impl.label)
    axes.set_yscale("log")
    axes.set_xticks([impl.stage for impl in stages])
    axes.set_xticklabels([f"{impl.stage:02d}" for impl in stages])
    axes.set_xlabel("stage")
    axes.set_ylabel("ns per operation (log)")
    axes.set_title(f"{workload} across stages")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    return True


def fd_scaling_chart(pyplot, results: Results, path: Path) -> None:
    """ns per round trip against idle descriptors watched, one line per backend:
    select's O(n) against epoll's O(1)."""
    stage_id = fd_scaling_latest(results)
    series = results.fd_scaling[stage_id]
    figure, axes = pyplot.subplots(figsize=(7.5, 3.8))
    for backend in fd_scaling_backends(series):
        points = sorted(series[backend].items())
        colour, marker = BACKEND_STYLES.get(backend, ("#555555", "o"))
        axes.plot([max(idle, 1) for idle, _ in points], [ns for _, ns in points],
                  marker=marker, color=colour, label=backend)
    idles = sorted({max(idle, 1) for points in series.values() for idle in points})
    axes.set_xscale("log")
    axes.set_xticks(idles)
    axes.set_xticklabels([f"{idle:,}" for idle in idles])
    axes.set_ylim(bottom=0)
    axes.set_xlabel("idle descriptors watched (log scale)")
    axes.set_ylabel("ns per round trip")
    axes.set_title(f"fd_scaling: {results.impls[stage_id].label}, reader_pingpong "
                   "with idle descriptors")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def tcp_chart(pyplot, workload: str, results: Results, path: Path) -> bool:
    """Bars of server CPU per request for one tcp_echo workload."""
    figures = results.tcp[workload]
    impls = [impl for impl in results.impls.values()
             if figures.get(impl.id, {}).get("server_cpu_ns_per_request")]
    if not impls:
        return False
    bars(pyplot, f"{workload}: server CPU per request", impls,
         [figures[impl.id]["server_cpu_ns_per_request"] for impl in impls],
         "server CPU ns per request (log scale; shorter is cheaper)", path)
    return True


def draw_charts(results: Results, charts_dir: Path) -> Tuple[Dict[str, List[Path]], Optional[str]]:
    """{workload (or "fd_scaling"): [chart files]}, plus a note when there are no charts."""
    pyplot = load_pyplot()
    if pyplot is None:
        return {}, (f"Charts were skipped: matplotlib cannot be imported by {sys.executable} "
                    "(on Debian: apt install python3-matplotlib).")
    charts: Dict[str, List[Path]] = {}
    for workload in results.ns_per_op:
        if workload in results.tcp:
            path = charts_dir / f"{workload}.svg"
            if tcp_chart(pyplot, workload, results, path):
                charts[workload] = [path]
            continue
        path = charts_dir / f"{workload}.svg"
        bar_chart(pyplot, workload, results, path)
        charts[workload] = [path]
        stages = charts_dir / f"{workload}-stages.svg"
        if stage_chart(pyplot, workload, results, stages):
            charts[workload].append(stages)
    if fd_scaling_latest(results):
        path = charts_dir / "fd_scaling.svg"
        fd_scaling_chart(pyplot, results, path)
        charts["fd_scaling"] = [path]
    return charts, None


# ---------------------------------------------------------------------------
# The report text


HOW_TO_READ = [
    "Each workload below was run by a looplab stage's Google Benchmark binary and by "
    "a Python twin of the same name, which does the same work with asyncio "
    "(and with uvloop where it can be imported).",
    "ns/op is wall-clock time per operation, the median over the repetitions. "
    "What one operation is, is defined per workload.",
    "The ratio column divides the time of the implementation it is compared with by "
    "this row's time: \"62.3× faster\" means this row needs 1/62.3 of the time. "
    "looplab stages are set against asyncio on the newest CPython; uvloop only "
    "against asyncio on the same interpreter, never against another version.",
    "The note column, where there is one, is what a benchmark says about itself "
    "(Google Benchmark's state.SetLabel): for a looplab stage, the work asyncio does "
    "in that workload which the stage does not do yet.",
]

BACKEND_READING = (
    "From stage 04 on, a stage's row uses its default selector (the note says which), "
    "and rows such as \"looplab stage 04 (epoll)\" are the same workload on one selector "
    "backend each (the benchmark \"workload/backend\"). The across-stages chart follows "
    "the stage rows only.")
NATIVE_READING = (
    "\"(C)\" rows are plain C programs doing the same reads and writes "
    "(comparisons/native/): the raw epoll floor is level-triggered epoll_wait, read and "
    "write and nothing else, what a loop on epoll cannot beat; libuv is the C loop under "
    "uvloop, without Python on top.")

TCP_ECHO_TEXT = [
    "tcp_echo_C: the shared C++ client echo_client (one thread, epoll) keeps C "
    "connections to an echo server on 127.0.0.1 busy: each connection sends a 100-byte "
    "message, reads the whole echo back, and sends the next. One op = one request echoed; "
    "comparisons/tcp_echo.py runs each server and the client.",
    "ns/request is wall time per request over all connections, requests/s its "
    "inverse; server CPU ns/request is the server process's CPU time (user + system) "
    "over the timed requests, divided by them: what a request costs the loop, the "
    "figure the ratio compares; \"of which user space\" is its share outside the kernel "
    "(from the process's utime and stime), the loop's own code without the TCP stack, "
    "which every server pays alike. looplab's server and libuv_echo_server are compared "
    "with asyncio's Protocol server on the newest CPython (the lowest-level asyncio "
    "server), asyncio's streams server with it too, and uvloop with asyncio on its own "
    "interpreter running the same server.",
    "tcp_echo_coro_C (C = 1, 10): the same measurement of looplab's coroutine server "
    "(examples/tasks/tcp_echo_coro_server.cpp, stage 06 on, on epoll): a task per "
    "connection awaiting loop.sock_recv and loop.sock_sendall, which register and remove "
    "the socket's reader at each wait, as asyncio's loop.sock_* do. It is compared with "
    "asyncio's streams server (a task per connection too, over a transport); the streams "
    "rows are the same runs as in tcp_echo_C.",
]

FD_SCALING_TEXT = (
    "reader_pingpong with N idle descriptors registered for reading (both ends of N/2 "
    "socket pairs that never become readable), on each selector backend of {stage}: ns "
    "per round trip, the median over the repetitions (the benchmarks "
    "fd_scaling/<backend>/<N>). select() rebuilds and scans its descriptor sets on every "
    "call, so its cost grows with what is watched (O(n)); epoll and io_uring report only "
    "what is ready (O(1) in the idle descriptors). select stops at 1,000: FD_SETSIZE is "
    "1,024.")

TARGETS_TEXT = (
    "The goals of stages 04 to 06, checked on this run's figures (ratios of medians, from "
    "the latest looplab stage from 04 on that has the rows). A ≤ or < goal is a ratio "
    "where lower is better; a ≥ goal is how many times more asyncio spends than looplab.")

HOW_TO_REPRODUCE = [
    ("make report", "full run: what this page shows"),
    ("make report QUICK=1", "smoke test: small batches, one repetition"),
    ("make report PYTHON=/path/to/python3.13", "choose the CPython for asyncio"),
    ("UVLOOP_PYTHON=/path/to/python make report", "choose the interpreter for uvloop"),
    ("python3 comparisons/asyncio/callback_queue/call_soon_batch.py --loop asyncio",
     "run one twin by hand (prints Google Benchmark JSON)"),
    ("build/release/bin/epoll_pingpong --quick",
     "run the raw epoll floor by hand (libuv_pingpong alike; prints Google Benchmark JSON)"),
    ("python3 comparisons/tcp_echo.py --client build/release/bin/echo_client --out /tmp/echo.json "
     "--name libuv -- build/release/bin/libuv_echo_server --port 0",
     "run tcp_echo against one server by hand"),
]

RATIO_NOTE = ("Figures are ratios measured in the same run, on the same machine; "
              "the absolute times are only reported, and mean little on another machine.")


@dataclass
class Report:
    """Everything the Markdown and HTML writers need."""

    results: Results
    header: List[Tuple[str, str]]
    charts: Dict[str, List[Path]]
    chart_note: Optional[str]
    out_dir: Path
    targets: List[Target] = field(default_factory=list)


def how_to_read(results: Results) -> List[str]:
    """The "how to read this" bullets that apply to what was measured."""
    lines = list(HOW_TO_READ)
    if any(impl.backend for impl in results.impls.values()):
        lines.append(BACKEND_READING)
    if any(impl.kind == "native" for impl in results.impls.values()):
        lines.append(NATIVE_READING)
    return lines + [gc_reading_note(results)]


def tcp_echo_paragraphs() -> List[str]:
    return TCP_ECHO_TEXT


def workload_order(results: Results) -> List[Workload]:
    """Workloads with twins in group/name order, then C++-only ones (tcp_echo has
    its own section)."""
    measured = [w for w in results.workloads.values()
                if w.name in results.ns_per_op and w.name not in results.tcp]
    return sorted(measured, key=lambda w: (w.twin is None, w.group, w.name))


def description_paragraphs(workload: Workload) -> List[str]:
    if not workload.description:
        return ["(No Python twin: measured on the C++ side only.)"]
    return [" ".join(paragraph.split()) for paragraph in workload.description.split("\n\n")]


def write_markdown(report: Report) -> str:
    results = report.results
    lines = ["# looplab benchmark report", ""]
    lines += [f"- **{label}**: {value}" for label, value in report.header]
    lines += ["", f"> {RATIO_NOTE}", ""]
    lines += problem_lines_markdown(report)
    lines += targets_markdown(report)
    lines += ["## How to read this", ""]
    lines += [f"- {text}" for text in how_to_read(results)]
    lines += [""]
    for workload in workload_order(results):
        lines += [f"## {workload.name}", ""]
        for paragraph in description_paragraphs(workload):
            lines += [paragraph, ""]
        with_notes = has_notes(workload.name, results)
        if with_notes:
            lines += ["| implementation | ns/op | ratio | compared with | note |",
                      "|---|---:|---:|---|---|"]
        else:
            lines += ["| implementation | ns/op | ratio | compared with |",
                      "|---|---:|---:|---|"]
        for row in table_rows(workload.name, results):
            cells = row if with_notes else row[:4]
            lines += ["| " + " | ".join(markdown_cell(cell) for cell in cells) + " |"]
        lines += [""]
        for chart in report.charts.get(workload.name, []):
            lines += [f"![{chart.stem}]({chart.relative_to(report.out_dir).as_posix()})", ""]
    lines += fd_scaling_markdown(report)
    lines += tcp_echo_markdown(report)
    lines += ["## How to reproduce", ""]
    lines += [f"- `{command}`: {what}" for command, what in HOW_TO_REPRODUCE]
    lines += ["", "Raw Google Benchmark JSON is in `raw/` (compare two files with "
              "Google Benchmark's `tools/compare.py benchmarks A.json B.json`); "
              "`summary.json` holds the medians, keyed by the ids in "
              "`implementations.json`.", ""]
    return "\n".join(lines)


def markdown_cell(text: str) -> str:
    """Text that cannot break a Markdown table row."""
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(header: List[str], rows: List[List[str]], numeric: set) -> List[str]:
    """A Markdown table; the columns whose index is in `numeric` align right."""
    lines = ["| " + " | ".join(markdown_cell(cell) for cell in header) + " |",
             "|" + "|".join("---:" if i in numeric else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def markdown_charts(report: Report, key: str) -> List[str]:
    lines = []
    for chart in report.charts.get(key, []):
        lines += [f"![{chart.stem}]({chart.relative_to(report.out_dir).as_posix()})", ""]
    return lines


def target_rows(report: Report) -> List[List[str]]:
    return [[target.what, "n/a" if target.value is None else f"{target.value:.2f}×",
             target.goal, target.status] for target in report.targets]


def targets_markdown(report: Report) -> List[str]:
    if not report.targets:
        return []
    return (["## Targets", "", TARGETS_TEXT, ""]
            + markdown_table(["target", "measured", "goal", "status"], target_rows(report),
                             {1}))


def fd_scaling_markdown(report: Report) -> List[str]:
    stage_id = fd_scaling_latest(report.results)
    if stage_id is None:
        return []
    header, rows = fd_scaling_rows(report.results)
    text = FD_SCALING_TEXT.format(stage=report.results.impls[stage_id].label)
    return (["## fd_scaling", "", text, ""]
            + markdown_table(header, rows, set(range(len(header))))
            + markdown_charts(report, "fd_scaling"))


TCP_HEADER = ["implementation", "ns/request", "requests/s", "server CPU ns/request",
              "of which user space", "server CPU ratio", "compared with"]


def tcp_echo_markdown(report: Report) -> List[str]:
    results = report.results
    if not results.tcp:
        return []
    lines = ["## tcp_echo", ""]
    for paragraph in tcp_echo_paragraphs():
        lines += [paragraph, ""]
    for workload in sorted(results.tcp, key=tcp_workload_order):
        lines += [f"### {workload}", ""]
        lines += markdown_table(TCP_HEADER, [list(row) for row in tcp_rows(workload, results)],
                                {1, 2, 3, 4, 5})
        lines += markdown_charts(report, workload)
    return lines


def tcp_workload_order(workload: str):
    """tcp_echo_1, tcp_echo_10, tcp_echo_100, then tcp_echo_coro_1, _10: by
    server style, then connection count."""
    prefix, _, count = workload.rpartition("_")
    return (prefix != "tcp_echo", prefix, int(count) if count.isdigit() else 1 << 30, workload)


def problem_lines_markdown(report: Report) -> List[str]:
    lines = []
    notes = report.results.warnings + ([report.chart_note] if report.chart_note else [])
    if notes:
        lines += ["## Notes", ""] + [f"- {note}" for note in notes] + [""]
    if report.results.failures:
        lines += ["## Failed runs", ""]
        for failure in report.results.failures:
            lines += ["```", failure, "```", ""]
    return lines


CSS = """
body { font-family: system-ui, sans-serif; max-width: 62em; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.3em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.7em; text-align: left; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; }
dl.header dt { font-weight: bold; }
dl.header dd { margin: 0; }
.note { background: #f6f8fa; border-left: 4px solid #2b6ca3; padding: 0.5em 1em; }
.failure { background: #fff0f0; border-left: 4px solid #c33; padding: 0.5em 1em;
           white-space: pre-wrap; font-family: monospace; }
img.chart { max-width: 100%; display: block; margin: 1em 0; }
code { background: #f3f3f3; padding: 0 0.2em; }
td.note-cell { font-size: 0.9em; color: #555; }
td.met { color: #1e7b34; font-weight: bold; }
td.not-met { color: #b3261e; font-weight: bold; }
td.unmeasured { color: #777; }
"""


def write_html(report: Report) -> str:
    results = report.results
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>looplab benchmark report</title>", f"<style>{CSS}</style></head><body>",
             "<h1>looplab benchmark report</h1>", '<dl class="header">']
    parts += [f"<dt>{e(label)}</dt><dd>{e(value)}</dd>" for label, value in report.header]
    parts += ["</dl>", f'<p class="note">{e(RATIO_NOTE)}</p>']
    notes = results.warnings + ([report.chart_note] if report.chart_note else [])
    if notes:
        parts += ["<h2>Notes</h2>", "<ul>"] + [f"<li>{e(n)}</li>" for n in notes] + ["</ul>"]
    if results.failures:
        parts += ["<h2>Failed runs</h2>"]
        parts += [f'<div class="failure">{e(failure)}</div>' for failure in results.failures]
    parts += targets_html(report)
    parts += ["<h2>How to read this</h2>", "<ul>"]
    parts += [f"<li>{e(text)}</li>" for text in how_to_read(results)]
    parts += ["</ul>"]
    for workload in workload_order(results):
        parts += [f'<h2 id="{e(workload.name)}">{e(workload.name)}</h2>']
        parts += [f"<p>{e(p)}</p>" for p in description_paragraphs(workload)]
        with_notes = has_notes(workload.name, results)
        parts += ["<table><tr><th>implementation</th><th>ns/op</th><th>ratio</th>"
                  "<th>compared with</th>" + ("<th>note</th>" if with_notes else "") + "</tr>"]
        for name, ns, ratio, against, note in table_rows(workload.name, results):
            parts += [f'<tr><td>{e(name)}</td><td class="num">{e(ns)}</td>'
                      f'<td class="num">{e(ratio)}</td><td>{e(against)}</td>'
                      + (f'<td class="note-cell">{e(note)}</td>' if with_notes else "")
                      + "</tr>"]
        parts += ["</table>"]
        parts += html_charts(report, workload.name)
    parts += fd_scaling_html(report)
    parts += tcp_echo_html(report)
    parts += ["<h2>How to reproduce</h2>", "<ul>"]
    parts += [f"<li><code>{e(c)}</code>: {e(w)}</li>" for c, w in HOW_TO_REPRODUCE]
    parts += ["</ul>", "<p>Raw Google Benchmark JSON is in <code>raw/</code>; "
              "<code>summary.json</code> holds the medians, keyed by the ids in "
              "<code>implementations.json</code>.</p>", "</body></html>", ""]
    return "\n".join(parts)


def html_table(header: List[str], rows: List[List[str]], numeric: set,
               classes: Optional[Dict[int, Callable[[str], str]]] = None) -> List[str]:
    """An HTML table; the columns whose index is in `numeric` align right.
    `classes` may give a cell's CSS class from its text, per column."""
    e = html.escape
    parts = ["<table><tr>" + "".join(f"<th>{e(cell)}</th>" for cell in header) + "</tr>"]
    for row in rows:
        cells = []
        for index, cell in enumerate(row):
            names = (["num"] if index in numeric else []) + (
                [classes[index](cell)] if classes and index in classes else [])
            names = [name for name in names if name]
            attribute = f' class="{" ".join(names)}"' if names else ""
            cells.append(f"<td{attribute}>{e(cell)}</td>")
        parts.append("<tr>" + "".join(cells) + "</tr>")
    return parts + ["</table>"]


def html_charts(report: Report, key: str) -> List[str]:
    parts = []
    for chart in report.charts.get(key, []):
        data = base64.b64encode(chart.read_bytes()).decode("ascii")
        parts += [f'<img class="chart" alt="{html.escape(chart.stem)}" '
                  f'src="data:image/svg+xml;base64,{data}">']
    return parts


def status_class(status: str) -> str:
    return {"met": "met", "not met": "not-met"}.get(status, "unmeasured")


def targets_html(report: Report) -> List[str]:
    if not report.targets:
        return []
    return (['<h2 id="targets">Targets</h2>', f"<p>{html.escape(TARGETS_TEXT)}</p>"]
            + html_table(["target", "measured", "goal", "status"], target_rows(report), {1},
                         {3: status_class}))


def fd_scaling_html(report: Report) -> List[str]:
    stage_id = fd_scaling_latest(report.results)
    if stage_id is None:
        return []
    header, rows = fd_scaling_rows(report.results)
    text = FD_SCALING_TEXT.format(stage=report.results.impls[stage_id].label)
    return (['<h2 id="fd_scaling">fd_scaling</h2>', f"<p>{html.escape(text)}</p>"]
            + html_table(header, rows, set(range(len(header))))
            + html_charts(report, "fd_scaling"))


def tcp_echo_html(report: Report) -> List[str]:
    results = report.results
    if not results.tcp:
        return []
    parts = ['<h2 id="tcp_echo">tcp_echo</h2>']
    parts += [f"<p>{html.escape(p)}</p>" for p in tcp_echo_paragraphs()]
    for workload in sorted(results.tcp, key=tcp_workload_order):
        parts += [f'<h3 id="{html.escape(workload)}">{html.escape(workload)}</h3>']
        parts += html_table(TCP_HEADER, [list(row) for row in tcp_rows(workload, results)],
                            {1, 2, 3, 4, 5})
        parts += html_charts(report, workload)
    return parts


def write_summaries(results: Results, out_dir: Path, targets: List[Target] = ()) -> None:
    """summary.json and implementations.json.

    summary.json is {workload: {impl id: ns/op}} (tcp_echo_C: wall ns per
    request), plus three keys that start with "_" and are not workloads:
    "_targets" (a list: each target's ratio, bound and "met"), "_fd_scaling"
    ({stage impl id: {backend: {idle descriptors: ns per round trip}}}) and
    "_tcp_echo" ({tcp_echo_C: {impl id: {"ns_per_request", "requests_per_second",
    "server_cpu_ns_per_request", "compared_with"}}})."""
    summary = {workload: {impl: round(ns, 3) for impl, ns in figures.items()}
               for workload, figures in results.ns_per_op.items()}
    summary["_targets"] = [target.as_json() for target in targets]
    summary["_fd_scaling"] = {
        impl_id: {backend: {str(idle): round(ns, 3) for idle, ns in sorted(points.items())}
                  for backend, points in series.items()}
        for impl_id, series in results.fd_scaling.items()}
    summary["_tcp_echo"] = {
        workload: {impl_id: {**{name: round(value, 3) for name, value in figures.items()},
                             "compared_with": tcp_baseline(results.impls[impl_id], by_impl,
                                                           workload)}
                   for impl_id, figures in by_impl.items()}
        for workload, by_impl in results.tcp.items()}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    described = {}
    for impl in results.impls.values():
        described[impl.id] = {
            "label": impl.label,
            "kind": impl.kind,
            "compared_with": impl.baseline,
            "stage": impl.stage,
            "backend": impl.backend,
            "program": impl.program,
            "interpreter": impl.interpreter.path if impl.interpreter else None,
            "python_version": impl.interpreter.version_str if impl.interpreter else None,
        }
        notes = {workload: by_impl[impl.id] for workload, by_impl in sorted(results.notes.items())
                 if impl.id in by_impl}
        if notes:
            described[impl.id]["notes"] = notes  # {workload: what the benchmark's label says}
        if impl.id in results.python_gc:
            gc_states = sorted(results.python_gc[impl.id])
            described[impl.id]["gc"] = gc_states[0] if len(gc_states) == 1 else gc_states
    (out_dir / "implementations.json").write_text(json.dumps(described, indent=2) + "\n")


# ---------------------------------------------------------------------------
# Putting it together


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Run the C++ benchmarks and their asyncio twins; write the report.")
    parser.add_argument("--build-dir", type=Path, default=Path("build/release"),
                        help="CMake build directory holding bin/bench_sNN (default: build/release)")
    parser.add_argument("--out", type=Path, default=Path("build/report"),
                        help="output directory (default: build/report)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke test: small batches, one repetition, short C++ min time")
    parser.add_argument("--python", default=None,
                        help="CPython for the asyncio twins (default: newest >= 3.12, or $PYTHON)")
    parser.add_argument("--repetitions", type=int, default=None,
                        help=f"repetitions per benchmark (default {FULL_REPETITIONS}; 1 with --quick)")
    args = parser.parse_args(argv)
    if args.repetitions is None:
        args.repetitions = 1 if args.quick else FULL_REPETITIONS
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    return args


def prepare_out_dir(out_dir: Path) -> Tuple[Path, Path]:
    """Fresh raw/ and charts/ (stale files from an earlier run would mislead)."""
    raw_dir, charts_dir = out_dir / "raw", out_dir / "charts"
    for directory in (raw_dir, charts_dir):
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
    return raw_dir, charts_dir


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if not args.build_dir.is_dir():
        print(f"report: no build directory {args.build_dir}: build the benchmarks first",
              file=sys.stderr)
        return 1
    try:
        newest = (pythons.require(args.python, what="--python") if args.python
                  else pythons.newest_cpython())
        uvloop_host = pythons.uvloop_python()
    except pythons.InterpreterError as error:
        print(f"report: {error}", file=sys.stderr)
        return 1

    results = Results()
    cpp = find_cpp_benchmarks(args.build_dir)
    if not cpp:
        results.warnings.append(f"No C++ benchmark binaries (bench_sNN) in "
                                f"{args.build_dir / 'bin'}: only the Python side was measured.")
    if uvloop_host is None:
        results.warnings.append("No interpreter here can import uvloop: uvloop was not measured.")
    python_impls = python_implementations(newest, uvloop_host)
    raw_dir, charts_dir = prepare_out_dir(args.out)
    native = native_implementations(args.build_dir, results)
    jobs = plan_jobs(cpp, find_twins(), python_impls, raw_dir,
                     args.quick, args.repetitions, results, native)
    tcp_jobs = plan_tcp_echo(args.build_dir, python_impls, raw_dir,
                             args.quick, args.repetitions, results)

    run_all(jobs + tcp_jobs, results)
    add_streams_rows_to_coro_tables(results)
    sort_implementations(results)
    merge_raw_per_implementation(raw_dir, results)
    results.warnings += cpp_context_warnings(raw_dir)
    pgo_warning = unoptimized_build_warning(newest)
    if pgo_warning:
        results.warnings.append(pgo_warning)
    header = environment(args.build_dir, args.quick, args.repetitions, python_impls)
    header.append(("Python gc", python_gc_text(results)))
    header += program_rows(native, tcp_jobs, results)
    charts, chart_note = draw_charts(results, charts_dir)
    targets = check_targets(results)
    report = Report(results, header, charts, chart_note, args.out, targets)
    (args.out / "report.md").write_text(write_markdown(report))
    (args.out / "index.html").write_text(write_html(report))
    write_summaries(results, args.out, targets)
    print(f"report: wrote {args.out / 'index.html'} and {args.out / 'report.md'}",
          file=sys.stderr)

    if results.failures:
        print(f"report: {len(results.failures)} run(s) failed:", file=sys.stderr)
        for failure in results.failures:
            print(f"--- {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
