"""The report's JSON files: summary.json, implementations.json and header.json,
for programs (the book, tools/looplab_tools/book.py) rather than readers."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from looplab_report import tables
from looplab_report.model import Implementation, Results


def summary(results: Results, targets: Iterable = ()) -> dict:
    """summary.json's content: {workload: {impl id: ns/op}} (tcp_echo_C: wall ns
    per request), plus keys that start with "_" and are not workloads:
    "_targets" (a list: each target's ratio, bound and "met"), "_fd_scaling"
    ({stage impl id: {backend: {idle descriptors: ns per round trip}}}),
    "_tcp_echo" ({tcp_echo_C: {impl id: {"ns_per_request", "requests_per_second",
    "server_cpu_ns_per_request", "compared_with"}}}) and, when a run measured
    them, "_async_tree" ({async_tree workload: {impl id: {"wall_ns_per_task",
    "cpu_ns_per_task"}}}: every loop's figures, CPU time where it was reported)
    and "_variants" ({workload: {impl id: {configuration: {"ns_per_op",
    "note"}}}}: a workload measured once per configuration of a stage)."""
    content = {workload: {impl: round(ns, 3) for impl, ns in figures.items()}
               for workload, figures in results.ns_per_op.items()}
    content["_targets"] = [target.as_json() for target in targets]
    content["_fd_scaling"] = {
        impl_id: {backend: {str(idle): round(ns, 3) for idle, ns in sorted(points.items())}
                  for backend, points in series.items()}
        for impl_id, series in results.fd_scaling.items()}
    content["_tcp_echo"] = {
        workload: {impl_id: {**{name: round(value, 3) for name, value in figures.items()},
                             "compared_with": tables.tcp_baseline(results.impls[impl_id], by_impl,
                                                                  workload)}
                   for impl_id, figures in by_impl.items()}
        for workload, by_impl in results.tcp.items()}
    if tables.async_tree_workloads(results):
        content["_async_tree"] = async_tree_summary(results)
    if results.variants:
        content["_variants"] = {
            workload: {impl_id: {variant: {**entry, "ns_per_op": round(entry["ns_per_op"], 3)}
                                 for variant, entry in variants.items()}
                       for impl_id, variants in by_impl.items()}
            for workload, by_impl in results.variants.items()}
    return content


def async_tree_summary(results: Results) -> dict:
    """{async_tree workload: {impl id: {"wall_ns_per_task", "cpu_ns_per_task"}}}."""
    content: dict = {}
    for workload, _, _ in tables.async_tree_workloads(results):
        cpu = results.cpu_ns_per_op.get(workload, {})
        content[workload] = {}
        for impl_id, ns in results.ns_per_op[workload].items():
            figures = {"wall_ns_per_task": round(ns, 3)}
            if impl_id in cpu:
                figures["cpu_ns_per_task"] = round(cpu[impl_id], 3)
            content[workload][impl_id] = figures
    return content


def described(impl: Implementation, results: Results) -> dict:
    """What implementations.json says of one implementation."""
    entry = {
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
        entry["notes"] = notes  # {workload: what the benchmark's label says}
    if impl.id in results.python_gc:
        gc_states = sorted(results.python_gc[impl.id])
        entry["gc"] = gc_states[0] if len(gc_states) == 1 else gc_states
    return entry


def implementations(results: Results) -> dict:
    """implementations.json's content: {impl id: what it stands for}, in table order."""
    return {impl.id: described(impl, results) for impl in results.impls.values()}


def header(rows: Iterable[tuple[str, str]]) -> dict[str, str]:
    """header.json's content: {label: value}, the header of report.md and index.html."""
    return dict(rows)


def write_summaries(results: Results, out_dir: Path, targets: Iterable = (),
                    header_rows: Iterable[tuple[str, str]] = ()) -> None:
    """Write summary.json, implementations.json and header.json into `out_dir`."""
    (out_dir / "summary.json").write_text(
        json.dumps(summary(results, targets), indent=2, sort_keys=True) + "\n")
    (out_dir / "implementations.json").write_text(json.dumps(implementations(results), indent=2) + "\n")
    (out_dir / "header.json").write_text(json.dumps(header(header_rows), indent=2) + "\n")
