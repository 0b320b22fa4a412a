"""The report's words around its tables: how to read them, what tcp_echo,
fd_scaling and async_tree measure, what the targets are, how to reproduce it."""
from __future__ import annotations

from typing import Sequence

from looplab_report import header
from looplab_report.model import Results, Workload

TITLE = "looplab benchmark report"

HOW_TO_READ = [
    "Each workload below was run by a looplab stage's Google Benchmark binary and by "
    "a Python twin of the same name, which does the same work with asyncio "
    "(and with uvloop where it can be imported); each in a process of its own.",
    "ns/op is wall-clock time per operation, the median over the repetitions. "
    "What one operation is, is defined per workload. With more than one repetition, "
    "the programs ran interleaved, one repetition a process, every program once a "
    "round: a burst of noise on the machine touches one repetition of several "
    "programs, not every repetition of one.",
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

ASYNC_TREE_TEXT = [
    "pyperformance's async_tree benchmarks (bm_async_tree): asyncio.gather() over a tree 6 levels "
    "deep with 6 branches per node, whose 46,656 leaves do the variant's work: none, nothing; io, "
    "sleep 50 ms (real time); memoization, look a key up in a cache that has about 90% of them, "
    "and sleep 50 ms on a miss; cpu_io_mixed, pyperformance's CPU work (math.factorial(500)) for "
    "half the leaves, left out on both sides here, and memoization's work for the other half. "
    "The same trees in C++ (bench/eager_tasks/async_tree_bench.cpp) and in Python "
    "(comparisons/asyncio/eager_tasks/_async_tree.py says what both change from pyperformance, "
    "and why).",
    "One op = one task of the tree: gather() wraps each child coroutine in a task, 55,986 a tree. "
    "The tasks start lazily (asyncio's default) or eagerly (the loop's task factory is "
    "eager_task_factory: pyperformance's async_tree_eager_* benchmarks). ns/task is CPU time "
    "(Google Benchmark's cpu_time; the twins' process time) and wall time per task, medians over "
    "the repetitions. The ratio and the targets use CPU time: the wall time of a tree that sleeps "
    "is mostly its 50 ms sleep (at least 893 ns a task), which no loop can shorten. The other "
    "Python loops' figures of these workloads are in summary.json (\"_async_tree\").",
]

# A paragraph more for a flavour of the async_tree table ([async_tree] in
# targets.toml), when the table has its rows.
ASYNC_TREE_FLAVOUR_TEXT = {
    "TaskGroup": (
        "The TaskGroup rows are pyperformance's async_tree_*_tg benchmarks: the same trees, but "
        "each node opens a group (async with asyncio.TaskGroup()) and creates a task per child "
        "with its create_task() instead of gathering them: 55,986 tasks a tree too, started "
        "lazily in the same order, so the same leaves hit the cache and sleep (in C++ "
        "bench/task_group/async_tree_tg_bench.cpp, in Python "
        "comparisons/asyncio/task_group/_async_tree_tg.py)."),
}

TARGETS_TEXT = (
    "The goals of {stages}, checked on this run's figures (ratios of medians, from "
    "the latest looplab stage from {first} on that has the rows). A ≤ or < goal is a ratio "
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


def gc_reading_note(results: Results) -> str:
    """The "how to read this" line about the Python twins' gc."""
    state = header.python_gc_state(results)
    if state == "on":
        return ("The Python twins ran with CPython's cyclic garbage collector on, as real "
                "programs run: gc traversing the queued Handles is part of what a workload "
                "costs on CPython (comparisons/asyncio/gbench.py --no-gc turns it off).")
    if state == "off":
        return ("The Python twins ran with CPython's cyclic garbage collector off during each "
                "timed batch (gbench.py --no-gc), which real programs do not do: their "
                "times leave out what gc costs them.")
    return f"The Python twins' cyclic garbage collector: {header.python_gc_text(results)}."


def how_to_read(results: Results) -> list[str]:
    """The "how to read this" bullets that apply to what was measured."""
    lines = list(HOW_TO_READ)
    if any(impl.backend for impl in results.impls.values()):
        lines.append(BACKEND_READING)
    if any(impl.kind == "native" for impl in results.impls.values()):
        lines.append(NATIVE_READING)
    return lines + [gc_reading_note(results)]


DIRECTION_TEXT = (" A goal \"as\" another loop is that loop's ratio of the same two workloads "
                  "({pairs}): looplab's should be on the same side of 1.")
# What a "same direction as" goal compares, by the async_tree flavour of its
# workload ([async_tree] in targets.toml).
DIRECTION_PAIRS = {"eager": "eager against lazy tasks",
                   "TaskGroup": "TaskGroup against gather() trees"}


def targets_text(first: int, last: int, direction_flavours: Sequence[str] = ()) -> str:
    """The Targets section's paragraph, for goals set by stages first to last;
    `direction_flavours`: the async_tree flavours of the workloads of its
    "same direction as" goals (none: it has no such goal)."""
    stages = f"stage {first:02d}" if first == last else f"stages {first:02d} to {last:02d}"
    text = TARGETS_TEXT.format(stages=stages, first=f"{first:02d}")
    if not direction_flavours:
        return text
    pairs = [DIRECTION_PAIRS[flavour] for flavour in dict.fromkeys(direction_flavours)
             if flavour in DIRECTION_PAIRS]
    return text + DIRECTION_TEXT.format(pairs="; ".join(pairs) or "one variant against another")


def first_lines(workloads) -> list[str]:
    """The first line of each workload's twin docstring ("name: what it does")."""
    return [workload.description.split("\n")[0] if workload.description
            else f"{workload.name}: (no Python twin)" for workload in workloads]


def description_paragraphs(workload: Workload) -> list[str]:
    """A workload's twin docstring, a paragraph per item."""
    if not workload.description:
        return ["(No Python twin: measured on the C++ side only.)"]
    return [" ".join(paragraph.split()) for paragraph in workload.description.split("\n\n")]
