#!/usr/bin/env python3
"""tcp_echo: request/response over TCP on 127.0.0.1, one server at a time.

    tcp_echo.py --client PATH/echo_client --out FILE [--name NAME]
                [--quick | --smoke] [--repetitions N] [--connections 1,10,100]
                [--pin same|split|none] [--prefix tcp_echo] -- SERVER COMMAND...

The server command must print ``PORT <n>`` as its first stdout line once it
listens on 127.0.0.1, serve until SIGTERM and then exit 0 (the servers in
``comparisons/echo/`` and looplab's ``tcp_echo_server_sNN`` all do). For each
connection count C, ``echo_client`` keeps C connections busy with 100-byte
messages, each sent once the previous echo on its connection has fully come
back. The output is Google Benchmark JSON (the shape of
``comparisons/asyncio/gbench.py``), one benchmark ``tcp_echo_<C>`` per count
(``<prefix>_<C>`` with ``--prefix``: the report runs looplab's coroutine
server with ``--prefix tcp_echo_coro``):

* ``real_time``: wall ns per request over the timed requests (1 / throughput;
  with C > 1 it is not the latency of one request);
* ``cpu_time``: the server's CPU ns per request over the same requests, the
  server's own threads only (its children are not counted);
* also ``server_cpu_ns_per_request``, ``requests_per_second``, ``requests``,
  ``server_user_cpu_ns_per_request`` (the user-space share, from utime/stime),
  ``connections``; and, to judge the figures, ``client_cpu_ns_per_request``
  and ``other_busy_cores``: how many cores' worth of other work ran
  meanwhile on the CPUs of client and server (from /proc/stat, so only for
  runs of 0.3 s or more; above 0.25 the driver warns that the figures are
  disturbed).

Where the two processes run (``--pin``): by default server and client are
pinned to the same CPU, so that a request costs no cross-CPU wake-up. On a
virtual machine, waking a process on another, idle vCPU costs tens of us (an
inter-processor interrupt, a halt exit), which at C = 1 swamps the
differences between loops and makes the figures depend on where the
scheduler happens to put the two processes. Measured on the 2-vCPU VM this
was written on, libuv with one connection: 14 us per request on one CPU,
100 us split over two, 15 or 55 us unpinned from one run to the next. The
price: the wall time is then client plus server CPU time, the requests per
second those of one shared core. ``--pin split`` puts them on two CPUs (for a
dedicated multi-core machine); ``--pin none`` leaves it to the scheduler.

How the server's CPU time is taken: for each connection count the driver
starts a fresh server and warms it up with one untimed client run (connect,
warm-up requests, close: some servers reach their steady state only once
connections have come and gone, see ``warm_up_run``). Each repetition then
runs the client with ``--handshake``: it connects, does its warm-up
requests, prints ``READY`` and waits; the driver reads the server's CPU
time, lets the client go, reads the client's result line (printed as soon as
the last timed echo is back, before any connection closes) and reads the
server's CPU time again. So the delta covers exactly the timed requests: not
the server's start-up, not accepting and closing the connections, not the
warm-up. The CPU time is the sum of the first field of
``/proc/<pid>/task/*/schedstat`` (ns on CPU, per thread; the process's own
``schedstat`` covers its main thread only), or, where schedstat is not
available, utime + stime from ``/proc/<pid>/stat`` (clock ticks, usually
10 ms: coarse, so use full runs). Before each reading the driver waits
20 ms, so that the server has finished with the requests before it (and is
idle: its CPU time does not move while it waits in its selector).

``--smoke`` (for CI): one repetition, connections 1 and 10, 200 requests.
Exits 1 with a message if a server does not start, does not answer, answers
wrongly, or does not exit 0 on SIGTERM.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import select
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent / "asyncio"))
import gbench  # noqa: E402  (the Google Benchmark JSON shape, shared with the twins)

DEFAULT_CONNECTIONS = (1, 10, 100)
SMOKE_CONNECTIONS = (1, 10)
PORT_TIMEOUT_S = 20
STOP_TIMEOUT_S = 10
CLIENT_TIMEOUT_S = 600  # a last resort: the client itself gives up after 10 s without an answer
SETTLE_S = 0.02
MIN_WINDOW_FOR_OTHER_NS = 300_000_000
OTHER_BUSY_WARNING = 0.25  # cores


class BenchError(Exception):
    """A failure that ends the run with a message and exit status 1."""


def request_counts(connections: int, mode: str) -> Tuple[int, int]:
    """(timed requests, warm-up requests) for one client run.

    A full repetition takes about 1 s on the slowest server measured
    (asyncio streams at C = 1, ~19 us of wall time per request with client
    and server on one CPU) and about 0.5 s on the fastest (~9 us). The same
    count serves every C: with one CPU for both, or a CPU-bound CPython
    server, more connections make requests at most ~1.5 times cheaper."""
    if mode == "smoke":
        return 200, max(20, connections)
    if mode == "quick":
        return 2_000, max(200, 2 * connections)
    return 50_000, max(5_000, 10 * connections)


# ---- the server's CPU time ---------------------------------------------------

def _schedstat_works() -> bool:
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[0]) > 0  # this process has run, so > 0 if it counts
    except (OSError, ValueError, IndexError):
        return False


CPU_CLOCK = "schedstat" if _schedstat_works() else "stat"
_TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def process_cpu_ns(pid: int) -> int:
    """CPU time used so far by all threads of process `pid`, in ns."""
    if CPU_CLOCK == "schedstat":
        total = 0
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                pass  # a thread that exited in between (its time is no longer listed)
        return total
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()  # the name may contain spaces
    return (int(fields[11]) + int(fields[12])) * _TICK_NS  # utime, stime (fields 14, 15)


def process_user_system_ticks(pid: int) -> Tuple[int, int]:
    """(utime, stime) of process `pid` in clock ticks: how its CPU time splits
    between user space (the event loop's own code) and the kernel (the TCP
    stack, the system calls). Coarse (10 ms ticks): used only as a ratio."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return int(fields[11]), int(fields[12])


def cpus_busy_ns(cpus: Optional[Set[int]]) -> int:
    """Time the CPUs in `cpus` (None: all of them) have spent not idle, from
    /proc/stat (in clock ticks, so coarse)."""
    total = 0
    with open("/proc/stat") as f:
        for line in f:
            fields = line.split()
            if not fields[0].startswith("cpu"):
                break
            if (fields[0] == "cpu") != (cpus is None):
                continue  # "cpu" sums all CPUs; "cpuN" is CPU N
            if cpus is not None and int(fields[0][3:]) not in cpus:
                continue
            user, nice, system, idle, iowait, irq, softirq, steal = map(int, fields[1:9])
            total += user + nice + system + irq + softirq + steal
    return total * _TICK_NS


class Sample:
    """What one reading before or after the timed requests sees."""

    def __init__(self, server: "Server", client_pid: int, cpus: Optional[Set[int]]) -> None:
        self.server = server.cpu_ns()
        self.server_ticks = process_user_system_ticks(server.process.pid)
        try:
            self.client = process_cpu_ns(client_pid)
        except (FileNotFoundError, ProcessLookupError):
            self.client = 0  # the client has failed; the caller will say so
        self.machine = cpus_busy_ns(cpus)


# ---- where the two processes run ---------------------------------------------------

def choose_cpus(pin: str) -> Tuple[Optional[Set[int]], Optional[Set[int]]]:
    """(server CPUs, client CPUs) for --pin; None: wherever the scheduler likes."""
    allowed = sorted(os.sched_getaffinity(0))
    if pin == "none":
        return None, None
    if pin == "same" or len(allowed) < 2:
        return {allowed[-1]}, {allowed[-1]}
    return {allowed[-1]}, {allowed[-2]}  # split; the last CPUs, as CPU 0 takes more interrupts


def pin_to(cpus: Optional[Set[int]]):
    """A preexec_fn that pins the child to `cpus` before it runs (so every
    thread it starts inherits it), or None."""
    if cpus is None:
        return None
    return lambda: os.sched_setaffinity(0, cpus)


# ---- one server process --------------------------------------------------------

class Server:
    """A server process started from its command, stopped with SIGTERM."""

    def __init__(self, command: List[str], name: str, cpus: Optional[Set[int]]) -> None:
        self.name = name
        self.cpus = cpus
        try:
            # stderr is inherited: what a server says there (its selector,
            # its errors) shows up in the driver's output.
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE,
                                            preexec_fn=pin_to(cpus))
        except OSError as error:
            raise BenchError(f"cannot start server {name!r} ({command[0]}): {error}") from None
        try:
            self.port = self._read_port()
        except BaseException:
            self.kill()
            raise
        # Keep reading its stdout, so that a talkative server never blocks on a full pipe.
        threading.Thread(target=self._forward_stdout, daemon=True).start()

    def _read_port(self) -> int:
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + PORT_TIMEOUT_S
        pending = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise BenchError(f"server {self.name!r} printed no 'PORT <n>' line "
                                 f"within {PORT_TIMEOUT_S} s")
            chunk = os.read(fd, 4096)
            if not chunk:
                status = self.process.wait()
                raise BenchError(f"server {self.name!r} exited (status {status}) "
                                 f"before printing 'PORT <n>'")
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                words = line.split()
                if len(words) == 2 and words[0] == b"PORT" and words[1].isdigit():
                    if pending:
                        sys.stderr.buffer.write(pending)
                    return int(words[1])
                sys.stderr.buffer.write(line + b"\n")  # tolerate a preamble

    def _forward_stdout(self) -> None:
        fd = self.process.stdout.fileno()
        while chunk := os.read(fd, 4096):
            sys.stderr.buffer.write(chunk)
            sys.stderr.flush()

    def check_alive(self) -> None:
        status = self.process.poll()
        if status is not None:
            raise BenchError(f"server {self.name!r} exited (status {status}) during the run")

    def cpu_ns(self) -> int:
        self.check_alive()
        try:
            return process_cpu_ns(self.process.pid)
        except (FileNotFoundError, ProcessLookupError):
            self.check_alive()
            raise

    def stop(self) -> None:
        """SIGTERM, then the server must exit 0 within STOP_TIMEOUT_S."""
        self.check_alive()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise BenchError(f"server {self.name!r} did not exit within "
                             f"{STOP_TIMEOUT_S} s of SIGTERM") from None
        if status != 0:
            raise BenchError(f"server {self.name!r} exited with status {status} on SIGTERM "
                             f"(expected a clean exit, 0)")

    def kill(self) -> None:
        """For the error paths: make sure the process is gone."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# ---- one client run --------------------------------------------------------------

class Run:
    """One client run's timed requests: wall time and the CPU time spent meanwhile."""

    def __init__(self, wall_ns: int, before: Sample, after: Sample) -> None:
        self.wall_ns = wall_ns
        self.server_cpu_ns = after.server - before.server
        self.client_cpu_ns = after.client - before.client
        # The user-space share of the server's CPU time, from its tick counts.
        user = after.server_ticks[0] - before.server_ticks[0]
        system = after.server_ticks[1] - before.server_ticks[1]
        # Ticks are 10 ms: below 20 of them (a --quick run) the share says nothing.
        self.server_user_fraction = user / (user + system) if user + system >= 20 else None
        # Everything else the CPUs of client and server (all CPUs when they
        # are not pinned) did meanwhile, in cores. /proc/stat
        # counts in clock ticks (10 ms), so only a run of 0.3 s or
        # more says something (to about 0.1 core); shorter ones say nothing.
        other_ns = (after.machine - before.machine) - self.server_cpu_ns - self.client_cpu_ns
        self.other_busy_cores = (max(0.0, other_ns / wall_ns)
                                 if wall_ns >= MIN_WINDOW_FOR_OTHER_NS else None)


def warm_up_run(client: str, server: Server, connections: int, warmup: int,
                message_size: int, cpus: Optional[Set[int]]) -> None:
    """An untimed client run: connect, `warmup` requests, close.

    A server reaches its steady state only once connections have come and
    gone, not just after requests: asyncio, for one, receives into a fresh
    256 KiB bytes object per recv(), which glibc's malloc serves with mmap()
    (plus mremap() and munmap()) until the first free of such a block raises
    its mmap threshold, and that first free comes at the first end of file.
    Measured: 22 us of server CPU per request on the first connections,
    8 us on every later one (CPython 3.11 and 3.13)."""
    command = [client, "--host", "127.0.0.1", "--port", str(server.port),
               "--connections", str(connections), "--message-size", str(message_size),
               "--requests", "0", "--warmup-requests", str(max(warmup, connections))]
    try:
        status = subprocess.run(command, stdout=subprocess.DEVNULL, preexec_fn=pin_to(cpus),
                                timeout=CLIENT_TIMEOUT_S).returncode
    except OSError as error:
        raise BenchError(f"cannot start the client {client}: {error}") from None
    except subprocess.TimeoutExpired:
        raise BenchError(f"the warm-up client run against server {server.name!r} "
                         f"did not end within {CLIENT_TIMEOUT_S} s") from None
    if status != 0:
        raise BenchError(f"the client failed (status {status}; its message is above) in the "
                         f"warm-up run against server {server.name!r}, "
                         f"{connections} connection(s)")


def timed_run(client: str, server: Server, connections: int, requests: int, warmup: int,
              message_size: int, cpus: Optional[Set[int]]) -> Run:
    """One client run, measured around its timed requests only."""
    command = [client, "--host", "127.0.0.1", "--port", str(server.port),
               "--connections", str(connections), "--message-size", str(message_size),
               "--requests", str(requests), "--warmup-requests", str(warmup), "--handshake"]
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, preexec_fn=pin_to(cpus))
    except OSError as error:
        raise BenchError(f"cannot start the client {client}: {error}") from None
    watchdog = threading.Timer(CLIENT_TIMEOUT_S, process.kill)
    watchdog.start()
    try:
        def failed(when: str) -> BenchError:
            process.kill()
            status = process.wait()
            return BenchError(f"the client failed {when} (status {status}; its message is "
                              f"above) against server {server.name!r}, "
                              f"{connections} connection(s)")

        if process.stdout.readline().strip() != "READY":
            raise failed("while connecting or warming up")
        time.sleep(SETTLE_S)
        both = None if cpus is None or server.cpus is None else cpus | server.cpus
        before = Sample(server, process.pid, both)
        try:
            process.stdin.write("go\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise failed("before the timed part") from None
        line = process.stdout.readline()
        time.sleep(SETTLE_S)
        after = Sample(server, process.pid, both)
        if not line:
            raise failed("during the timed part")
        try:
            process.stdin.write("close\n")
            process.stdin.close()
        except BrokenPipeError:
            pass  # its exit status tells
        status = process.wait()
        if status != 0:
            raise BenchError(f"the client failed while closing (status {status}) against "
                             f"server {server.name!r}")
        result = json.loads(line)
        if result["requests"] != requests:
            raise BenchError(f"the client did {result['requests']} requests, not {requests}")
        return Run(result["elapsed_ns"], before, after)
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()


# ---- the benchmark ----------------------------------------------------------------

def benchmark_entries(name: str, family: int, connections: int, requests: int,
                      runs: List[Run]) -> List[dict]:
    """Google Benchmark's entries for one connection count: one per
    repetition, then mean/median/stddev when there is more than one."""
    iterations = []
    for index, run in enumerate(runs):
        entry = gbench.iteration_entry(name, index, len(runs), requests, run.wall_ns,
                                       run.server_cpu_ns)
        entry["family_index"] = family
        entry.update(server_cpu_ns_per_request=run.server_cpu_ns / requests,
                     requests_per_second=requests * 1e9 / run.wall_ns,
                     requests=requests, connections=connections,
                     client_cpu_ns_per_request=run.client_cpu_ns / requests)
        if run.other_busy_cores is not None:
            entry["other_busy_cores"] = run.other_busy_cores
        if run.server_user_fraction is not None:
            entry["server_user_cpu_ns_per_request"] = (run.server_cpu_ns * run.server_user_fraction
                                                       / requests)
        iterations.append(entry)
    aggregates = gbench.aggregate_entries(name, iterations)
    functions = {"mean": statistics.mean, "median": statistics.median,
                 "stddev": statistics.stdev}
    for entry in aggregates:
        function = functions[entry["aggregate_name"]]
        entry["family_index"] = family
        for counter in ("server_cpu_ns_per_request", "requests_per_second",
                        "client_cpu_ns_per_request", "other_busy_cores",
                        "server_user_cpu_ns_per_request"):
            if all(counter in run for run in iterations):
                entry[counter] = function([run[counter] for run in iterations])
        entry.update(requests=requests, connections=connections)
    return iterations + aggregates


def measure(args: argparse.Namespace, command: List[str]) -> List[dict]:
    entries = []
    for family, connections in enumerate(args.connections):
        requests, warmup = request_counts(connections, args.mode)
        requests = args.requests or requests
        warmup = warmup if args.warmup_requests is None else args.warmup_requests
        name = f"{args.prefix}_{connections}"
        # A fresh server for each connection count: every count starts from
        # the same state (no memory, caches or connection bookkeeping left by
        # an earlier count), and a crash is pinned to one count. One untimed
        # client run warms it up (see warm_up_run); then each repetition is a
        # new client with its own warm-up requests on its own connections.
        server = Server(command, args.name, args.server_cpus)
        try:
            warm_up_run(args.client, server, connections, warmup, args.message_size,
                        args.client_cpus)
            runs = []
            for _ in range(args.repetitions):
                runs.append(timed_run(args.client, server, connections, requests, warmup,
                                      args.message_size, args.client_cpus))
                server.check_alive()
            server.stop()
        finally:
            server.kill()
        entries += benchmark_entries(name, family, connections, requests, runs)
        wall = statistics.median(run.wall_ns for run in runs) / requests
        cpu = statistics.median(run.server_cpu_ns for run in runs) / requests
        client_cpu = statistics.median(run.client_cpu_ns for run in runs) / requests
        other = max((run.other_busy_cores or 0.0) for run in runs)
        print(f"{name}: {args.name}: {wall:,.0f} ns/request ({1e9 / wall:,.0f} requests/s), "
              f"server CPU {cpu:,.0f} ns/request, client CPU {client_cpu:,.0f} ns/request "
              f"(median of {len(runs)}, {requests} requests each)", file=sys.stderr)
        if other > OTHER_BUSY_WARNING:
            print(f"{name}: warning: other processes kept up to {other:.1f} cores busy "
                  f"during the runs: these figures are disturbed", file=sys.stderr)
    return entries


def context(args: argparse.Namespace, command: List[str]) -> dict:
    info = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host_name": socket.gethostname(),
        "executable": command[0],
        "num_cpus": os.cpu_count(),
        "server": args.name,
        "server_command": command,
        "client": str(Path(args.client).resolve()),
        "workload": args.prefix,
        "message_size": args.message_size,
        "mode": args.mode,
        "server_cpu_clock": CPU_CLOCK,
        "pin": args.pin,
        "server_cpus": sorted(args.server_cpus) if args.server_cpus else None,
        "client_cpus": sorted(args.client_cpus) if args.client_cpus else None,
        "requests": {str(c): args.requests or request_counts(c, args.mode)[0]
                     for c in args.connections},
        "driver_python": platform.python_version(),
    }
    if hasattr(os, "getloadavg"):
        info["load_avg"] = list(os.getloadavg())
    return info


def parse_args(argv: List[str]) -> Tuple[argparse.Namespace, List[str]]:
    if "--" in argv:
        split = argv.index("--")
        own, command = argv[:split], argv[split + 1:]
    else:
        own, command = argv, []
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        usage="%(prog)s --client PATH --out FILE [options] -- SERVER COMMAND...")
    parser.add_argument("--client", required=True, help="the echo_client binary")
    parser.add_argument("--out", required=True, help="write the JSON here")
    parser.add_argument("--name", default=None,
                        help="the server's name in the JSON context (default: from its command)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true",
                      help="2,000 requests per count and one repetition")
    mode.add_argument("--smoke", action="store_true",
                      help="for CI: 200 requests, connections 1 and 10, one repetition")
    parser.add_argument("--repetitions", type=int, default=None,
                        help=f"client runs per count (default {gbench.DEFAULT_REPETITIONS}; "
                             f"1 with --quick or --smoke)")
    parser.add_argument("--connections", default=None,
                        help="comma-separated connection counts "
                             "(default 1,10,100; 1,10 with --smoke)")
    parser.add_argument("--requests", type=int, default=None,
                        help="timed requests per client run (default: by count and mode)")
    parser.add_argument("--warmup-requests", type=int, default=None,
                        help="untimed requests before them (default: by count and mode)")
    parser.add_argument("--message-size", type=int, default=100, help="bytes (default 100)")
    parser.add_argument("--prefix", default="tcp_echo",
                        help="the benchmarks' names are PREFIX_<connections> (default tcp_echo)")
    parser.add_argument("--pin", choices=("same", "split", "none"), default="same",
                        help="CPU placement: server and client on one CPU (same, the default), "
                             "on two (split), or wherever the scheduler puts them (none)")
    args = parser.parse_args(own)
    if not command:
        parser.error("give the server's command after --")
    args.mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    if args.repetitions is None:
        args.repetitions = 1 if args.mode != "full" else gbench.DEFAULT_REPETITIONS
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    if args.connections is None:
        args.connections = list(SMOKE_CONNECTIONS if args.smoke else DEFAULT_CONNECTIONS)
    else:
        try:
            args.connections = [int(c) for c in args.connections.split(",")]
        except ValueError:
            parser.error("--connections takes comma-separated numbers, e.g. 1,10,100")
        if min(args.connections) < 1:
            parser.error("--connections must be at least 1")
    if args.requests is not None and args.requests < 1:
        parser.error("--requests must be at least 1")
    if args.warmup_requests is not None and args.warmup_requests < 0:
        parser.error("--warmup-requests must be at least 0")
    if args.message_size < 1:
        parser.error("--message-size must be at least 1")
    if not os.access(args.client, os.X_OK):
        parser.error(f"--client {args.client}: not an executable file")
    args.server_cpus, args.client_cpus = choose_cpus(args.pin)
    if args.name is None:
        args.name = " ".join([Path(command[0]).name] + command[1:])
    return args, command


def main(argv: Optional[List[str]] = None) -> int:
    args, command = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        entries = measure(args, command)
    except BenchError as error:
        print(f"tcp_echo: error: {error}", file=sys.stderr)
        return 1
    document = {"context": context(args, command), "benchmarks": entries}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
