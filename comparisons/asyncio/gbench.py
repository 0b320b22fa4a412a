"""A tiny Google-Benchmark look-alike for the asyncio benchmark twins.

Each twin in ``comparisons/asyncio/<group>/<name>.py`` defines one workload as
a function ``run_batch(loop, ops)`` that performs `ops` operations on a fresh
event loop, and hands it to ``main()`` here.  This module gives every twin the
same command line::

    python3 call_soon_batch.py [--loop asyncio|uvloop] [--quick]
                               [--repetitions N] [--out FILE]

and writes results in Google Benchmark's JSON shape, so Google Benchmark's
``tools/compare.py`` (and ``comparisons/report.py``) read a twin's output
exactly like the C++ benchmark's.

How a twin is timed, and why:

* One *batch* = one call of ``run_batch(loop, ops)``.  Only the batch is
  timed, with ``time.perf_counter_ns`` (wall) and ``time.process_time_ns``
  (CPU); creating and closing the loop are not.  ns/op = batch time / ops,
  which matches the C++ side, where ``state.KeepRunningBatch(ops)`` makes one
  benchmark iteration equal one operation.
* One untimed warm-up batch first (imports, first-call caches, memory the
  allocator has to fetch from the OS once).
* The cyclic garbage collector stays on, as in every real asyncio program:
  a loop with 10^6 queued Handles pays for gc traversing them, and that is
  part of what running that workload on CPython costs (it roughly doubles
  call_soon_batch: ~1200 vs ~590 ns/op on 3.12 and 3.13, measured here).
  ``--no-gc`` disables it during a timed batch, to see the loop's code alone;
  the JSON context records which was used.
* Repetitions (default 5) give the spread; like Google Benchmark with
  ``--benchmark_repetitions``, the output then holds one "iteration" entry
  per repetition followed by mean, median and stddev "aggregate" entries.
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import json
import os
import platform
import socket
import statistics
import sys
import time
from typing import Callable, List, Optional

DEFAULT_REPETITIONS = 5


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio",
                        help="event loop implementation (default: asyncio)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer operations and one repetition (a smoke test)")
    parser.add_argument("--repetitions", type=int, default=None,
                        help=f"timed batches (default {DEFAULT_REPETITIONS}; 1 with --quick)")
    parser.add_argument("--out", default=None, help="write the JSON here (default: stdout)")
    parser.add_argument("--selector", choices=("select", "default"), default=None,
                        help="asyncio's selector: select() or asyncio's default (epoll on "
                             "Linux); default: the twin's own choice")
    parser.add_argument("--no-gc", action="store_true",
                        help="disable the cyclic gc during timed batches (default: on, as programs run)")
    args = parser.parse_args(argv)
    if args.repetitions is None:
        args.repetitions = 1 if args.quick else DEFAULT_REPETITIONS
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    return args


def loop_factory(name: str, selector: Optional[str] = None) -> Callable[[], asyncio.AbstractEventLoop]:
    """The function that makes a new loop of the requested kind.

    `selector` = "select" gives asyncio a selectors.SelectSelector, for the
    workloads that compare like with like against looplab's select() stage;
    None keeps asyncio's default (epoll on Linux). uvloop always uses libuv."""
    if name == "uvloop":
        import uvloop  # only needed, and only importable, on some interpreters
        return uvloop.new_event_loop
    if selector == "select":
        import selectors
        return lambda: asyncio.SelectorEventLoop(selectors.SelectSelector())
    return asyncio.new_event_loop


def time_batch(new_loop, run_batch, ops: int, use_gc: bool = True):
    """Run one batch on a fresh loop; return (wall ns, cpu ns) for the batch alone."""
    loop = new_loop()
    try:
        gc.collect()  # start each batch from the same, clean heap
        if not use_gc:
            gc.disable()  # see the module docstring
        try:
            wall_start = time.perf_counter_ns()
            cpu_start = time.process_time_ns()
            run_batch(loop, ops)
            cpu = time.process_time_ns() - cpu_start
            wall = time.perf_counter_ns() - wall_start
        finally:
            gc.enable()
    finally:
        loop.close()
    return wall, cpu


def iteration_entry(name: str, index: int, repetitions: int, ops: int,
                    wall_ns: int, cpu_ns: int) -> dict:
    """One repetition, as Google Benchmark reports it."""
    return {
        "name": name,
        "family_index": 0,
        "per_family_instance_index": 0,
        "run_name": name,
        "run_type": "iteration",
        "repetitions": repetitions,
        "repetition_index": index,
        "threads": 1,
        "iterations": ops,
        "real_time": wall_ns / ops,
        "cpu_time": cpu_ns / ops,
        "time_unit": "ns",
    }


def aggregate_entries(name: str, runs: List[dict]) -> List[dict]:
    """mean, median and stddev over the repetitions (Google Benchmark writes
    these only when there is more than one repetition)."""
    if len(runs) < 2:
        return []
    entries = []
    for aggregate, function in (("mean", statistics.mean),
                                ("median", statistics.median),
                                ("stddev", statistics.stdev)):
        entries.append({
            "name": f"{name}_{aggregate}",
            "family_index": 0,
            "per_family_instance_index": 0,
            "run_name": name,
            "run_type": "aggregate",
            "repetitions": len(runs),
            "threads": 1,
            "aggregate_name": aggregate,
            "aggregate_unit": "time",
            "iterations": len(runs),
            "real_time": function([run["real_time"] for run in runs]),
            "cpu_time": function([run["cpu_time"] for run in runs]),
            "time_unit": "ns",
        })
    return entries


def context(loop_name: str) -> dict:
    """The "context" block: where and how this ran."""
    info = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host_name": socket.gethostname(),
        "executable": sys.executable,
        "python_version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "loop": loop_name,
        "num_cpus": os.cpu_count(),
        "library_build_type": "release",
    }
    if loop_name == "uvloop":
        import uvloop
        info["uvloop_version"] = uvloop.__version__
    if hasattr(os, "getloadavg"):
        info["load_avg"] = list(os.getloadavg())
    return info


def main(name: str, run_batch: Callable[[asyncio.AbstractEventLoop, int], None],
         ops: int, quick_ops: int, argv: Optional[List[str]] = None,
         selector: Optional[str] = None) -> int:
    """Time `run_batch` and write Google Benchmark JSON; the twins' entry point."""
    args = parse_args(argv)
    if args.selector is not None:
        selector = None if args.selector == "default" else args.selector
    new_loop = loop_factory(args.loop, selector)
    batch_ops = quick_ops if args.quick else ops

    use_gc = not args.no_gc
    time_batch(new_loop, run_batch, batch_ops, use_gc)  # warm-up, not reported
    runs = []
    for index in range(args.repetitions):
        wall, cpu = time_batch(new_loop, run_batch, batch_ops, use_gc)
        runs.append(iteration_entry(name, index, args.repetitions, batch_ops, wall, cpu))

    document = {"context": {**context(args.loop), "gc": "on" if use_gc else "off",
                            "selector": "libuv" if args.loop == "uvloop" else (selector or "default")},
                "benchmarks": runs + aggregate_entries(name, runs)}
    text = json.dumps(document, indent=2) + "\n"
    if args.out:
        with open(args.out, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)

    median = statistics.median(run["real_time"] for run in runs)
    print(f"{name}: {args.loop} on {platform.python_implementation()} "
          f"{platform.python_version()}: {median:.1f} ns/op "
          f"(median of {len(runs)}, {batch_ops} ops each)", file=sys.stderr)
    return 0
