#!/usr/bin/env python3
"""Run the C++ benchmarks and their asyncio twins; write the comparison report.

    report.py --build-dir build/release --out build/report
              [--quick] [--python INTERP] [--repetitions N]

What runs, one program at a time (so runs never compete for the cores):

1. every C++ benchmark binary ``<build-dir>/bin/bench_sNN`` (one per stage),
   with Google Benchmark's own repetitions;
2. every twin ``comparisons/asyncio/<group>/<workload>.py``
   * under the newest CPython (3.12 or later; ``--python`` or ``$PYTHON``
     choose another) with asyncio's loop, and
   * if some interpreter can import uvloop (``pythons.uvloop_python()``),
     under that interpreter twice, ``--loop asyncio`` and ``--loop uvloop``,
     so that uvloop is only ever set against asyncio on the same interpreter.

What it writes into ``--out``:

* ``report.md`` and ``index.html`` (the same content; the HTML has its charts
  inlined and needs nothing else),
* ``summary.json``: ``{workload: {implementation id: ns per op}}``, and
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
from typing import Dict, List, Optional, Tuple

import pythons

COMPARISONS_DIR = Path(__file__).resolve().parent
TWINS_DIR = COMPARISONS_DIR / "asyncio"
CPP_TIMEOUT_S = 900
TWIN_TIMEOUT_S = 300
FULL_REPETITIONS = 5
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


# ---------------------------------------------------------------------------
# What is compared


@dataclass
class Implementation:
    """One column of the comparison: a looplab stage, or a Python event loop."""

    id: str                 # stable key, used in summary.json
    label: str              # shown in tables and charts
    kind: str               # "looplab", "asyncio" or "uvloop"
    baseline: Optional[str] = None  # id its ratio is computed against
    stage: Optional[int] = None
    interpreter: Optional[pythons.Interpreter] = None


@dataclass
class Job:
    """One program run: a C++ benchmark binary, or one twin under one loop."""

    impl: Implementation
    title: str              # progress line, e.g. "cpython 3.13 asyncio call_soon_batch"
    command: List[str]
    raw: Path               # the JSON file the program writes
    timeout: int


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
    failures: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)

    def record(self, workload: str, impl: Implementation, ns: float,
               note: Optional[str] = None) -> None:
        self.workloads.setdefault(workload, Workload(workload))
        self.ns_per_op.setdefault(workload, {})[impl.id] = ns
        if note:
            self.notes.setdefault(workload, {})[impl.id] = note


# ---------------------------------------------------------------------------
# Finding the programs


def find_cpp_benchmarks(build_dir: Path) -> List[Tuple[int, Path]]:
    """(stage, path) for every bench_sNN binary, in stage order."""
    found = []
    for path in sorted((build_dir / "bin").glob("bench_s[0-9][0-9]")):
        if path.is_file() and os.access(path, os.X_OK):
            found.append((int(path.name[-2:]), path))
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


def plan_jobs(cpp: List[Tuple[int, Path]], twins: List[Workload],
              python_impls: List[Implementation], raw_dir: Path,
              quick: bool, repetitions: int, results: Results) -> List[Job]:
    """The runs, in order: C++ binaries, then each workload under each Python loop.

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
    for impl in python_impls:
        results.impls[impl.id] = impl
    for workload in twins:
        results.workloads[workload.name] = workload
        for impl in python_impls:
            loop = "uvloop" if impl.kind == "uvloop" else "asyncio"
            raw = raw_dir / f"{impl.id}--{workload.name}.json"
            # -I: isolated mode, so PYTHONASYNCIODEBUG and friends cannot creep in.
            command = [impl.interpreter.path, "-I", str(workload.twin), "--loop", loop,
                       "--repetitions", str(repetitions), "--out", str(raw)]
            if quick:
                command.append("--quick")
            title = f"cpython {impl.interpreter.short_version} {loop} {workload.name}"
            jobs.append(Job(impl, title, command, raw, TWIN_TIMEOUT_S))
    return jobs


# ---------------------------------------------------------------------------
# Running them and reading Google Benchmark JSON


def ns_per_op_by_workload(document: dict) -> Dict[str, float]:
    """{workload: ns per op} from one Google Benchmark JSON document.

    Uses the "median" aggregate when there is one, else the median of the
    plain iteration runs (a single one when there were no repetitions).
    A benchmark named "name/arg" counts as workload "name".
    """
    medians: Dict[str, float] = {}
    iterations: Dict[str, List[float]] = {}
    for entry in document.get("benchmarks", []):
        if entry.get("error_occurred") or entry.get("skipped"):
            raise ValueError(f"{entry.get('name')}: {entry.get('error_message', 'skipped')}")
        workload = (entry.get("run_name") or entry["name"]).split("/")[0]
        ns = entry["real_time"] * TIME_UNIT_NS[entry.get("time_unit", "ns")]
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[workload] = ns
        else:
            iterations.setdefault(workload, []).append(ns)
    figures = {name: statistics.median(values) for name, values in iterations.items()}
    figures.update(medians)
    return figures


def labels_by_workload(document: dict) -> Dict[str, str]:
    """{workload: label} from one Google Benchmark JSON document.

    A benchmark that calls ``state.SetLabel(text)`` gets a "label" field in each
    of its entries; benchmarks that do not (and older binaries) have none.
    """
    labels: Dict[str, str] = {}
    for entry in document.get("benchmarks", []):
        label = (entry.get("label") or "").strip()
        if label:
            workload = (entry.get("run_name") or entry["name"]).split("/")[0]
            labels.setdefault(workload, label)
    return labels


@dataclass
class Outcome:
    """What one successful run produced."""

    ns_per_op: Dict[str, float]
    labels: Dict[str, str]
    context: dict


def run_job(job: Job) -> Outcome:
    """Run one program; return what it measured, or raise RuntimeError with the reason."""
    try:
        result = subprocess.run(job.command, capture_output=True, text=True,
                                errors="replace", timeout=job.timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"timed out after {job.timeout} s") from None
    except OSError as error:
        raise RuntimeError(str(error)) from None
    if result.returncode != 0:
        raise RuntimeError(f"exit status {result.returncode}\n{result.stderr.strip()}")
    try:
        document = json.loads(job.raw.read_text())
        figures = ns_per_op_by_workload(document)
        labels = labels_by_workload(document)
    except (OSError, ValueError, KeyError) as error:
        raise RuntimeError(f"unreadable output {job.raw}: {error}\n{result.stderr.strip()}") \
            from None
    if not figures:
        raise RuntimeError(f"no benchmarks in {job.raw}")
    return Outcome(figures, labels, document.get("context", {}))


def run_all(jobs: List[Job], results: Results) -> None:
    """Run every job, printing one progress line each to stderr."""
    for step, job in enumerate(jobs, start=1):
        print(f"[{step}/{len(jobs)}] {job.title} ... ", end="", file=sys.stderr, flush=True)
        try:
            outcome = run_job(job)
        except RuntimeError as error:
            print("FAILED", file=sys.stderr)
            results.failures.append(f"{job.title}: {error}\n  command: {' '.join(job.command)}")
            continue
        figures = outcome.ns_per_op
        for workload, ns in figures.items():
            results.record(workload, job.impl, ns, outcome.labels.get(workload))
        if job.impl.kind != "looplab":
            # gbench.py writes "gc": "on"|"off"; twins from before it did not.
            results.python_gc.setdefault(job.impl.id, set()).add(
                str(outcome.context.get("gc", "unknown")))
        if len(figures) == 1:
            (ns,) = figures.values()
            print(f"{format_ns(ns)} ns/op", file=sys.stderr)
        else:
            print(", ".join(f"{name} {format_ns(ns)}" for name, ns in figures.items())
                  + " ns/op", file=sys.stderr)


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
        if impl.baseline is None:
            ratio, against = "1× (baseline)", ""
        elif impl.baseline in figures:
            ratio = ratio_text(figures[impl.baseline] / ns)
            against = results.impls[impl.baseline].label
            if impl.kind == "uvloop":
                against += " (same interpreter)"
        else:
            ratio, against = "n/a", f"{results.impls[impl.baseline].label} did not run"
        note = results.notes.get(workload, {}).get(impl.id, "")
        rows.append((impl.label, format_ns(ns), ratio, against, note))
    return rows


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


KIND_COLOURS = {"looplab": "#2b6ca3", "asyncio": "#8c8c8c", "uvloop": "#d9822b"}


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
    values = [figures[impl.id] for impl in impls]
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
    axes.set_xlabel("ns per operation (log scale; shorter is faster)")
    axes.set_title(workload)
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def stage_chart(pyplot, workload: str, results: Results, path: Path) -> bool:
    """ns/op of a workload across looplab stages, with the Python loops as
    reference lines.  Drawn only when more than one stage has the workload."""
    figures = results.ns_per_op[workload]
    stages = [impl for impl in results.impls.values()
              if impl.kind == "looplab" and impl.id in figures]
    if len(stages) < 2:
        return False
    figure, axes = pyplot.subplots(figsize=(7.5, 3.8))
    axes.plot([impl.stage for impl in stages], [figures[impl.id] for impl in stages],
              marker="o", color=KIND_COLOURS["looplab"], label="looplab")
    references = [impl for impl in results.impls.values()
                  if impl.kind != "looplab" and impl.id in figures]
    for impl, style in zip(references, ["--", ":", "-.", (0, (5, 1, 1, 1))]):
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


def draw_charts(results: Results, charts_dir: Path) -> Tuple[Dict[str, List[Path]], Optional[str]]:
    """{workload: [chart files]}, plus a note when there are no charts."""
    pyplot = load_pyplot()
    if pyplot is None:
        return {}, (f"Charts were skipped: matplotlib cannot be imported by {sys.executable} "
                    "(on Debian: apt install python3-matplotlib).")
    charts: Dict[str, List[Path]] = {}
    for workload in results.ns_per_op:
        bars = charts_dir / f"{workload}.svg"
        bar_chart(pyplot, workload, results, bars)
        charts[workload] = [bars]
        stages = charts_dir / f"{workload}-stages.svg"
        if stage_chart(pyplot, workload, results, stages):
            charts[workload].append(stages)
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

HOW_TO_REPRODUCE = [
    ("make report", "full run: what this page shows"),
    ("make report QUICK=1", "smoke test: small batches, one repetition"),
    ("make report PYTHON=/path/to/python3.13", "choose the CPython for asyncio"),
    ("UVLOOP_PYTHON=/path/to/python make report", "choose the interpreter for uvloop"),
    ("python3 comparisons/asyncio/callback_queue/call_soon_batch.py --loop asyncio",
     "run one twin by hand (prints Google Benchmark JSON)"),
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


def workload_order(results: Results) -> List[Workload]:
    """Workloads with twins in group/name order, then C++-only ones."""
    measured = [w for w in results.workloads.values() if w.name in results.ns_per_op]
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
    lines += ["## How to read this", ""]
    lines += [f"- {text}" for text in HOW_TO_READ + [gc_reading_note(results)]]
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
td.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; }
dl.header dt { font-weight: bold; }
dl.header dd { margin: 0; }
.note { background: #f6f8fa; border-left: 4px solid #2b6ca3; padding: 0.5em 1em; }
.failure { background: #fff0f0; border-left: 4px solid #c33; padding: 0.5em 1em;
           white-space: pre-wrap; font-family: monospace; }
img.chart { max-width: 100%; display: block; margin: 1em 0; }
code { background: #f3f3f3; padding: 0 0.2em; }
td.note-cell { font-size: 0.9em; color: #555; }
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
    parts += ["<h2>How to read this</h2>", "<ul>"]
    parts += [f"<li>{e(text)}</li>" for text in HOW_TO_READ + [gc_reading_note(results)]]
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
        for chart in report.charts.get(workload.name, []):
            data = base64.b64encode(chart.read_bytes()).decode("ascii")
            parts += [f'<img class="chart" alt="{e(chart.stem)}" '
                      f'src="data:image/svg+xml;base64,{data}">']
    parts += ["<h2>How to reproduce</h2>", "<ul>"]
    parts += [f"<li><code>{e(c)}</code>: {e(w)}</li>" for c, w in HOW_TO_REPRODUCE]
    parts += ["</ul>", "<p>Raw Google Benchmark JSON is in <code>raw/</code>; "
              "<code>summary.json</code> holds the medians, keyed by the ids in "
              "<code>implementations.json</code>.</p>", "</body></html>", ""]
    return "\n".join(parts)


def write_summaries(results: Results, out_dir: Path) -> None:
    """summary.json ({workload: {impl id: ns/op}}) and implementations.json."""
    summary = {workload: {impl: round(ns, 3) for impl, ns in figures.items()}
               for workload, figures in results.ns_per_op.items()}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    described = {}
    for impl in results.impls.values():
        described[impl.id] = {
            "label": impl.label,
            "kind": impl.kind,
            "compared_with": impl.baseline,
            "stage": impl.stage,
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
    jobs = plan_jobs(cpp, find_twins(), python_impls, raw_dir,
                     args.quick, args.repetitions, results)

    run_all(jobs, results)
    merge_raw_per_implementation(raw_dir, results)
    results.warnings += cpp_context_warnings(raw_dir)
    pgo_warning = unoptimized_build_warning(newest)
    if pgo_warning:
        results.warnings.append(pgo_warning)
    header = environment(args.build_dir, args.quick, args.repetitions, python_impls)
    header.append(("Python gc", python_gc_text(results)))
    charts, chart_note = draw_charts(results, charts_dir)
    report = Report(results, header, charts, chart_note, args.out)
    (args.out / "report.md").write_text(write_markdown(report))
    (args.out / "index.html").write_text(write_html(report))
    write_summaries(results, args.out)
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
