"""Run the C++ benchmarks and their asyncio twins; write the comparison report.

    comparisons/report.py --build-dir build/release --out build/report
                          [--quick] [--python INTERP] [--repetitions N]

What runs, one program at a time (so runs never compete for the cores):

1. every C++ benchmark binary ``<build-dir>/bin/bench_sNN`` (one per stage),
   each benchmark family in a process of its own;
2. the native C programs of ``comparisons/native/``, if built:
   ``<build-dir>/bin/epoll_pingpong`` (the raw epoll floor) and
   ``<build-dir>/bin/libuv_pingpong`` (libuv), kind "native";
3. every twin ``comparisons/asyncio/<group>/<workload>.py``
   * under the newest CPython (3.12 or later; ``--python`` or ``$PYTHON``
     choose another) with asyncio's loop, and
   * if some interpreter can import uvloop (``pythons.uvloop_python()``),
     under that interpreter twice, ``--loop asyncio`` and ``--loop uvloop``,
     so that uvloop is only ever set against asyncio on the same interpreter;
   once a stage with pollers ran ([pollers] in ``targets.toml``), the twins
   of the io group also run asyncio on its default selector (epoll);
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
   Which servers, from which stage, on which backends: [echo] and
   [coro_echo] in ``targets.toml``.

With more than one repetition (the full mode's 5), the programs of 1 to 3
run interleaved: one repetition each, in a process of its own, round after
round, every program once a round; a program's figure is the median of its
rounds. A burst of noise on the machine then touches one repetition of
several programs instead of every repetition of one. ``--no-interleave``
runs each program once, with all its repetitions. tcp_echo.py repeats its
runs itself.

What is missing (a binary not built, no uvloop) is skipped with a note in the
report.  A C++ benchmark ``workload/<backend>`` (backend select, poll, epoll,
io_uring, kqueue; stage 04 on) is a row "looplab stage NN (<backend>)" of that
workload; ``fd_scaling/<backend>/<idle>`` goes to the fd_scaling table and
chart of the latest stage that has it, not to a workload.  A backend-specific
benchmark that reports an error (io_uring unavailable here, say) is a note,
not a failure.

What it writes into ``--out``:

* ``report.md`` and ``index.html`` (the same content; the HTML has its charts
  inlined and needs nothing else); once a stage that set a target ran, they
  open with a "Targets" section: the goals of ``targets.toml`` (stage 04:
  epoll within 1.1× of the raw epoll floor and no slower than libuv, io_uring
  no slower than epoll, tcp_echo_1 server CPU below libuv's and at most a
  third of asyncio's; stages 05 and 06: future_resolve and task_sleep0 at
  least 30× cheaper than asyncio; stage 07: fanout_cached and the async_tree
  family, eager tasks against asyncio's and against lazy ones; stage 08:
  taskgroup_fanout and the TaskGroup trees, against asyncio's and against
  the gather() trees), those of the stages up to the latest that ran, met or
  not, computed from this run; from stage 07 an "async_tree" section: one
  table and one chart for the family (its TaskGroup rows from stage 08),
* ``header.json``: the header of report.md as ``{label: value}`` (date,
  machine, kernel, compiler, interpreters, mode, Python gc, ...),
* ``summary.json``: ``{workload: {implementation id: ns per op}}`` plus
  ``_targets``, ``_fd_scaling``, ``_tcp_echo`` and ``_async_tree`` (see
  ``summary.summary``), and
  ``implementations.json``: what each implementation id stands for, with its
  per-workload ``notes`` (the benchmark's ``state.SetLabel`` text, e.g. what a
  stage skips that asyncio does) and, for Python loops, the twins' ``gc``
  setting,
* ``raw/``: every JSON file the benchmark programs wrote (interleaved: each
  program's rounds merged; each round's own file in ``raw/rounds/``),
* ``charts/``: SVG charts (if matplotlib can be imported).

In report.md and index.html a benchmark's label is shown in a "note" column
next to its row, and the header says whether the twins ran with Python's cyclic
gc on (read from the "gc" field of their JSON contexts).

Progress goes to stderr, one line per run.  The exit status is 1 if any run
failed (the report is still written, with the failures listed).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Optional

import pythons
from looplab_report import charts, discover, echo_plan, header, html, markdown, plan, record, run
from looplab_report import partial, summary, targets
from looplab_report.model import Report, Results

FULL_REPETITIONS = 5


def parse_args(argv: Optional[list[str]] = None) -> argparse.Namespace:
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
    parser.add_argument("--stages", default=None, metavar="NN,NN",
                        help="a partial run: only these stages, each on the workloads of the groups "
                             "it introduces, with their twins and native programs "
                             "(make reference-report merges it into the book's reference)")
    parser.add_argument("--repetitions", type=int, default=None,
                        help=f"repetitions per benchmark (default {FULL_REPETITIONS}; 1 with --quick)")
    parser.add_argument("--no-interleave", dest="interleave", action="store_false",
                        help="run each program's repetitions in one process, one program after "
                             "the other, instead of one repetition of every program per round")
    args = parser.parse_args(argv)
    if args.repetitions is None:
        args.repetitions = 1 if args.quick else FULL_REPETITIONS
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    if args.stages is not None:
        try:
            args.stages = partial.parse_stages(args.stages)
        except ValueError as error:
            parser.error(str(error))
    return args


def prepare_out_dir(out_dir: Path) -> tuple[Path, Path]:
    """Fresh raw/ and charts/ (stale files from an earlier run would mislead)."""
    raw_dir, charts_dir = out_dir / "raw", out_dir / "charts"
    for directory in (raw_dir, charts_dir):
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
    return raw_dir, charts_dir


def interpreters(args: argparse.Namespace):
    """(newest CPython, uvloop's interpreter or None); InterpreterError if none fits."""
    newest = (pythons.require(args.python, what="--python") if args.python
              else pythons.newest_cpython())
    return newest, pythons.uvloop_python()


def measure(args: argparse.Namespace, newest, uvloop_host, raw_dir: Path,
            results: Results) -> list[tuple[str, str]]:
    """Plan and run everything into `results`; return the report's header rows."""
    cpp = discover.find_cpp_benchmarks(args.build_dir)
    if not cpp:
        results.warnings.append(f"No C++ benchmark binaries (bench_sNN) in "
                                f"{args.build_dir / 'bin'}: only the Python side was measured.")
    if uvloop_host is None:
        results.warnings.append("No interpreter here can import uvloop: uvloop was not measured.")
    python_impls = discover.python_implementations(newest, uvloop_host)
    native = discover.native_implementations(args.build_dir, results)
    twins, filters = discover.find_twins(), {}
    tcp_echo = True
    if args.stages:
        cpp, filters, twins, native, groups = partial.select(args.stages, cpp, twins, native)
        tcp_echo = bool(groups & {"pollers", "tasks"})  # the chapters that show the echo servers
    # Interleaved: each program runs once per round, one repetition a run.
    rounds = args.repetitions if args.interleave else 1
    per_run = 1 if rounds > 1 else args.repetitions
    jobs = plan.plan_jobs(cpp, twins, python_impls, raw_dir, args.quick,
                          per_run, results, native, filters)
    tcp_jobs = (echo_plan.plan_tcp_echo(args.build_dir, python_impls, raw_dir,
                                        args.quick, args.repetitions, results) if tcp_echo else [])
    if rounds > 1:
        run.run_interleaved(jobs + tcp_jobs, results, rounds)
    else:
        run.run_all(jobs + tcp_jobs, results)
    record.add_twin_rows_to_coro_tables(results)
    record.sort_implementations(results)
    run.merge_raw_per_implementation(raw_dir, results)
    results.warnings += header.cpp_context_warnings(raw_dir)
    pgo_warning = header.unoptimized_build_warning(newest)
    if pgo_warning:
        results.warnings.append(pgo_warning)
    rows = header.environment(args.build_dir, args.quick, args.repetitions, python_impls,
                              interleaved=rounds > 1)
    rows.append(("Python gc", header.python_gc_text(results)))
    if args.stages:
        rows.append(("stages", ", ".join(f"{stage:02d}" for stage in args.stages)))
    return rows + header.program_rows(native, tcp_jobs)


def write_report(report: Report) -> None:
    """report.md, index.html, summary.json, implementations.json, header.json."""
    (report.out_dir / "report.md").write_text(markdown.write_markdown(report))
    (report.out_dir / "index.html").write_text(html.write_html(report))
    summary.write_summaries(report.results, report.out_dir, report.targets, report.header)
    print(f"report: wrote {report.out_dir / 'index.html'} and {report.out_dir / 'report.md'}",
          file=sys.stderr)


def main(argv: Optional[list[str]] = None) -> int:
    args = parse_args(argv)
    if not args.build_dir.is_dir():
        print(f"report: no build directory {args.build_dir}: build the benchmarks first",
              file=sys.stderr)
        return 1
    try:
        newest, uvloop_host = interpreters(args)
    except pythons.InterpreterError as error:
        print(f"report: {error}", file=sys.stderr)
        return 1
    results = Results()
    raw_dir, charts_dir = prepare_out_dir(args.out)
    header_rows = measure(args, newest, uvloop_host, raw_dir, results)
    drawn, chart_note = charts.draw_charts(results, charts_dir)
    write_report(Report(results, header_rows, drawn, chart_note, args.out,
                        targets.check_targets(results)))
    if results.failures:
        print(f"report: {len(results.failures)} run(s) failed:", file=sys.stderr)
        for failure in results.failures:
            print(f"--- {failure}", file=sys.stderr)
        return 1
    return 0
