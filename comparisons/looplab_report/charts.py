"""The SVG charts (optional: they need matplotlib): a bar chart per workload,
its cost across stages, fd_scaling's lines, tcp_echo's server CPU, async_tree's
CPU per task."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Optional

from looplab_report import tables
from looplab_report.formatting import format_ns
from looplab_report.model import Implementation, Results

KIND_COLOURS = {"looplab": "#2b6ca3", "native": "#3d8c40", "asyncio": "#8c8c8c",
                "uvloop": "#d9822b"}
# fd_scaling: one line per backend (an unknown backend is grey circles).
BACKEND_STYLES = {"select": ("#c0392b", "o"), "poll": ("#8e44ad", "v"),
                  "epoll": ("#2b6ca3", "s"), "io_uring": ("#2a9d8f", "D"),
                  "kqueue": ("#d9822b", "^")}
REFERENCE_LINE_STYLES = ["--", ":", "-.", (0, (5, 1, 1, 1)), (0, (3, 1, 1, 1, 1, 1)),
                         (0, (1, 2)), (0, (8, 2))]
WIDTH = 7.5


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


def save(pyplot, figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def bars(pyplot, title: str, impls: list[Implementation], values: list[float], xlabel: str,
         path: Path) -> None:
    """Horizontal bars, one per implementation in table order, log scale."""
    figure, axes = pyplot.subplots(figsize=(WIDTH, 0.45 * len(impls) + 1.3))
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
    save(pyplot, figure, path)


def bar_chart(pyplot, workload: str, results: Results, path: Path) -> None:
    """Horizontal bars of ns/op per implementation, log scale."""
    figures = results.ns_per_op[workload]
    impls = [impl for impl in results.impls.values() if impl.id in figures]
    bars(pyplot, workload, impls, [figures[impl.id] for impl in impls],
         "ns per operation (log scale; shorter is faster)", path)


def stage_chart(pyplot, workload: str, results: Results, path: Path) -> bool:
    """ns/op of a workload across looplab stages, with the Python loops as
    reference lines.  Drawn only when more than one stage has the workload.
    A stage's point is its own row (its default selector), not its per-backend rows."""
    figures = results.ns_per_op[workload]
    stages = [impl for impl in results.impls.values()
              if impl.kind == "looplab" and impl.backend is None and impl.id in figures]
    if len(stages) < 2:
        return False
    figure, axes = pyplot.subplots(figsize=(WIDTH, 3.8))
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
    save(pyplot, figure, path)
    return True


def fd_scaling_chart(pyplot, results: Results, path: Path) -> None:
    """ns per round trip against idle descriptors watched, one line per backend:
    select's O(n) against epoll's O(1)."""
    stage_id = tables.fd_scaling_latest(results)
    series = results.fd_scaling[stage_id]
    figure, axes = pyplot.subplots(figsize=(WIDTH, 3.8))
    for backend in tables.fd_scaling_backends(series):
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
    save(pyplot, figure, path)


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


def async_tree_chart(pyplot, results: Results, path: Path) -> None:
    """CPU ns per task of each async_tree variant and flavour, a bar per
    implementation of the table (looplab, asyncio), log scale."""
    impls = [results.impls[impl_id] for impl_id in tables.async_tree_columns(results)]
    rows = tables.async_tree_workloads(results)
    figure, axes = pyplot.subplots(figsize=(WIDTH, 0.32 * len(rows) * len(impls) + 1.5))
    height = 0.8 / max(len(impls), 1)
    shown = []
    for index, impl in enumerate(impls):
        cpu = [results.cpu_ns_per_op.get(workload, {}).get(impl.id) for workload, _, _ in rows]
        positions = [row + index * height for row, value in enumerate(cpu) if value]
        values = [value for value in cpu if value]
        axes.barh(positions, values, height=height, color=KIND_COLOURS[impl.kind], label=impl.label)
        for position, value in zip(positions, values):
            axes.text(value * 1.08, position, f"{format_ns(value)} ns", va="center", fontsize=8)
        shown += values
    axes.set_yticks([row + 0.4 - height / 2 for row in range(len(rows))])
    axes.set_yticklabels([f"{variant}, {flavour}" for _, variant, flavour in rows])
    axes.invert_yaxis()  # first variant on top, as in the table
    axes.set_xscale("log")
    if shown:
        axes.set_xlim(min(shown) / 3, max(shown) * 6)
    axes.set_xlabel("CPU ns per task (log scale; shorter is cheaper)")
    axes.set_title("async_tree: CPU time per task of the tree")
    axes.legend(fontsize=8)
    save(pyplot, figure, path)


def workload_charts(pyplot, workload: str, results: Results, charts_dir: Path) -> list[Path]:
    """A workload's charts: tcp_echo's server CPU bars, or the ns/op bars and
    (with more than one stage) the across-stages lines."""
    path = charts_dir / f"{workload}.svg"
    if workload in results.tcp:
        return [path] if tcp_chart(pyplot, workload, results, path) else []
    bar_chart(pyplot, workload, results, path)
    stages = charts_dir / f"{workload}-stages.svg"
    return [path] + ([stages] if stage_chart(pyplot, workload, results, stages) else [])


def draw_charts(results: Results, charts_dir: Path) -> tuple[dict[str, list[Path]], Optional[str]]:
    """{workload (or "fd_scaling"): [chart files]}, plus a note when there are no charts."""
    pyplot = load_pyplot()
    if pyplot is None:
        return {}, (f"Charts were skipped: matplotlib cannot be imported by {sys.executable} "
                    "(on Debian: apt install python3-matplotlib).")
    charts: dict[str, list[Path]] = {}
    for workload in results.ns_per_op:
        if tables.is_async_tree(workload):
            continue  # one chart for them all, below
        drawn = workload_charts(pyplot, workload, results, charts_dir)
        if drawn:
            charts[workload] = drawn
    if tables.fd_scaling_latest(results):
        path = charts_dir / "fd_scaling.svg"
        fd_scaling_chart(pyplot, results, path)
        charts["fd_scaling"] = [path]
    if tables.async_tree_columns(results):
        path = charts_dir / "async_tree.svg"
        async_tree_chart(pyplot, results, path)
        charts["async_tree"] = [path]
    return charts, None
