"""The tcp_echo runs: comparisons/tcp_echo.py, with the client bin/echo_client,
against each echo server there is (looplab's, libuv's, asyncio's)."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from looplab_report import discover, policy
from looplab_report.model import Implementation, Results, stage_implementation
from looplab_report.plan import Job

TCP_TIMEOUT_S = 600
# The Python echo servers (comparisons/echo/): (id suffix, script, label suffix).
PYTHON_ECHO_SERVERS = (("protocol", "asyncio_protocol_server.py", "Protocol server"),
                       ("streams", "asyncio_streams_server.py", "streams server"))


@dataclass
class EchoServer:
    """One server for the tcp_echo workloads: the command that serves, and who it is."""

    impl: Implementation
    title: str              # progress line
    command: list[str]      # prints "PORT n" once listening; --port 0 is in it
    env: Optional[dict[str, str]] = None
    skip: Optional[Callable[[Results], Optional[str]]] = None
    prefix: Optional[str] = None            # tcp_echo.py --prefix (default tcp_echo)
    connections: Optional[tuple[int, ...]] = None  # tcp_echo.py --connections


def backend_measured(stage_impl_id: str, backend: str, bench_title: str):
    """A Job.skip test: skip an echo server on `backend` when the stage's own
    benchmark binary ran, measured other backends, but not this one (it said
    the backend is unavailable here, e.g. io_uring blocked by a container)."""
    def skip(results: Results) -> Optional[str]:
        # The binary runs as one job, or as one job per benchmark family.
        if not any(title == bench_title or title.startswith(bench_title + " ")
                   for title in results.succeeded):
            return None  # no evidence either way: try
        prefix = f"{stage_impl_id}_"
        measured = {impl_id[len(prefix):] for figures in results.ns_per_op.values()
                    for impl_id in figures if impl_id.startswith(prefix)}
        if measured and backend not in measured:
            return (f"{bench_title} measured no {backend} variant (only "
                    f"{', '.join(sorted(measured))}): {backend} seems unavailable here")
        return None
    return skip


def looplab_echo_servers(build_dir: Path, results: Results) -> list[EchoServer]:
    """The latest stage's echo server, once per backend of the policy, as the
    stage's per-backend rows (compared with asyncio's Protocol server: see
    tables.tcp_baseline)."""
    rules = policy.load()
    latest = discover.latest_staged(build_dir, rules.echo_server, rules.echo_first_stage)
    if latest is None:
        results.warnings.append(f"No {build_dir / 'bin'}/{rules.echo_server}_sNN (stage "
                                f"{rules.echo_first_stage:02d} on): looplab was not measured on "
                                "tcp_echo.")
        return []
    stage, binary = latest
    stage_impl = stage_implementation(stage)
    return [EchoServer(results.backend_implementation(stage_impl, backend),
                       f"tcp_echo {binary.name} {backend}", [str(binary), "--port", "0"],
                       env={"LOOPLAB_SELECTOR": backend},
                       skip=backend_measured(stage_impl.id, backend, f"c++ bench_s{stage:02d}"))
            for backend in rules.echo_backends]


def coro_echo_servers(build_dir: Path, results: Results, echo_stage: Optional[int]) -> list[EchoServer]:
    """The latest coroutine echo server, if built: its own row (not a stage or
    backend row), compared with the asyncio server written the same way.
    `echo_stage` is the stage of the looplab echo server that runs, if any."""
    coro = policy.load().coro_echo
    latest = discover.latest_staged(build_dir, coro.server, coro.first_stage)
    if latest is None:
        if echo_stage is not None and echo_stage >= coro.first_stage:
            results.warnings.append(f"No {build_dir / 'bin'}/{coro.server}_sNN (stage "
                                    f"{coro.first_stage:02d} on): {coro.prefix} was not "
                                    "measured.")
        return []
    stage, binary = latest
    impl = Implementation(f"looplab_s{stage:02d}_{coro.name}",
                          f"looplab stage {stage:02d}, {coro.label} ({coro.backend})", "looplab",
                          baseline=f"cpython_asyncio_{coro.twin}", stage=stage,
                          backend=coro.backend, program=str(binary))
    return [EchoServer(impl, f"tcp_echo {binary.name} {coro.backend}",
                       [str(binary), "--port", "0"], env={"LOOPLAB_SELECTOR": coro.backend},
                       prefix=coro.prefix, connections=coro.connections)]


def libuv_echo_servers(build_dir: Path, results: Results) -> list[EchoServer]:
    """libuv_echo_server, if built."""
    binary = discover.find_program(build_dir, "libuv_echo_server")
    if binary is None:
        results.warnings.append(f"No {build_dir / 'bin' / 'libuv_echo_server'}: libuv was not "
                                "measured on tcp_echo.")
        return []
    impl = results.impls.get("libuv") or Implementation(
        "libuv", discover.native_label("libuv"), "native", baseline="cpython_asyncio",
        program=str(binary))
    return [EchoServer(impl, f"tcp_echo {binary.name}", [str(binary), "--port", "0"])]


def python_baseline(py: Implementation, suffix: str) -> Optional[str]:
    """What asyncio's `suffix` server under the loop `py` is compared with, as the
    twins are: the newest CPython's asyncio Protocol server is the baseline;
    asyncio's streams server against it; another interpreter's asyncio against
    the newest's, same server; uvloop against asyncio on its own interpreter,
    same server."""
    if py.id == "cpython_asyncio":
        return None if suffix == "protocol" else "cpython_asyncio_protocol"
    return f"{py.baseline}_{suffix}"


def python_echo_servers(python_impls: list[Implementation], results: Results) -> list[EchoServer]:
    """Both asyncio servers under each Python loop (as the twins run)."""
    servers = []
    for suffix, script_name, what in PYTHON_ECHO_SERVERS:
        script = discover.ECHO_DIR / script_name
        if not script.is_file():
            results.warnings.append(f"No {script}: it was not measured on tcp_echo.")
            continue
        for py in python_impls:
            loop = "uvloop" if py.kind == "uvloop" else "asyncio"
            impl = Implementation(f"{py.id}_{suffix}", f"{py.label}, {what}", py.kind,
                                  baseline=python_baseline(py, suffix),
                                  interpreter=py.interpreter, program=str(script))
            servers.append(EchoServer(
                impl, f"tcp_echo cpython {py.interpreter.short_version} {loop} {script.stem}",
                [py.interpreter.path, "-I", str(script), "--loop", loop, "--port", "0"]))
    return servers


def echo_servers(build_dir: Path, python_impls: list[Implementation],
                 results: Results) -> list[EchoServer]:
    """Every tcp_echo server that can run here, in the order they run: looplab's
    echo server once per backend, its coroutine server, libuv_echo_server, then
    both asyncio servers under each Python loop. What is missing is a note."""
    looplab = looplab_echo_servers(build_dir, results)
    echo_stage = looplab[0].impl.stage if looplab else None
    return (looplab + coro_echo_servers(build_dir, results, echo_stage)
            + libuv_echo_servers(build_dir, results) + python_echo_servers(python_impls, results))


def tcp_job(server: EchoServer, client: Path, raw_dir: Path, quick: bool, repetitions: int) -> Job:
    """One tcp_echo.py run against one server (it runs tcp_echo_1, _10 and _100)."""
    # Not <impl>--*.json: run.merge_raw_per_implementation must not fold these into
    # an implementation's benchmark file.
    raw = raw_dir / f"tcp_echo--{server.impl.id}.json"
    command = [sys.executable, str(discover.TCP_ECHO_DRIVER), "--client", str(client),
               "--out", str(raw), "--repetitions", str(repetitions), "--name", server.impl.id]
    if quick:
        command.append("--quick")
    if server.prefix:
        command += ["--prefix", server.prefix]
    if server.connections:
        command += ["--connections", ",".join(str(c) for c in server.connections)]
    command += ["--", *server.command]
    return Job(server.impl, server.title, command, raw, TCP_TIMEOUT_S,
               role="tcp_echo", env=server.env, skip=server.skip)


def plan_tcp_echo(build_dir: Path, python_impls: list[Implementation], raw_dir: Path,
                  quick: bool, repetitions: int, results: Results) -> list[Job]:
    """The tcp_echo runs, if the driver and the client are there (else a note)."""
    if not discover.TCP_ECHO_DRIVER.is_file():
        results.warnings.append(f"No {discover.TCP_ECHO_DRIVER}: tcp_echo was not measured.")
        return []
    client = discover.find_program(build_dir, "echo_client")
    if client is None:
        results.warnings.append(f"No {build_dir / 'bin' / 'echo_client'} (the tcp_echo "
                                "client): tcp_echo was not measured.")
        return []
    jobs = []
    for server in echo_servers(build_dir, python_impls, results):
        results.impls.setdefault(server.impl.id, server.impl)
        jobs.append(tcp_job(server, client, raw_dir, quick, repetitions))
    return jobs
