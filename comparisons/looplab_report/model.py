"""What the report compares and what it measured: implementations, workloads, results."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pythons

# asyncio on its default selector (epoll on Linux): the baseline of the
# kernel-side backends, for the twins of the policy's epoll-baseline groups.
ASYNCIO_EPOLL_ID = "cpython_asyncio_epoll"


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
class Workload:
    """A benchmark name shared by the C++ side and its twin."""

    name: str
    group: str = ""
    description: str = ""
    twin: Optional[Path] = None
    # The oldest Python the twin runs on (its REQUIRES_PYTHON), e.g. (3, 12).
    requires_python: Optional[tuple[int, ...]] = None


@dataclass
class Results:
    """Everything the report shows."""

    impls: dict[str, Implementation] = field(default_factory=dict)
    workloads: dict[str, Workload] = field(default_factory=dict)
    ns_per_op: dict[str, dict[str, float]] = field(default_factory=dict)
    # {workload: {impl id: CPU ns per op}}: the CPU time of the same runs, where
    # they reported one (Google Benchmark's cpu_time; the twins' process time).
    cpu_ns_per_op: dict[str, dict[str, float]] = field(default_factory=dict)
    # {workload: {impl id: label}}: what a benchmark says about itself with
    # Google Benchmark's state.SetLabel(), e.g. what a stage skips that asyncio does.
    notes: dict[str, dict[str, str]] = field(default_factory=dict)
    # {impl id: {"on", "off", "unknown"}}: the "gc" field of the twins' JSON contexts.
    python_gc: dict[str, set] = field(default_factory=dict)
    # {stage impl id: {backend: {idle descriptors: ns per round trip}}}, from the
    # benchmarks fd_scaling/<backend>/<idle>.
    fd_scaling: dict[str, dict[str, dict[int, float]]] = field(default_factory=dict)
    # {tcp_echo_C: {impl id: {"ns_per_request", "requests_per_second",
    #                         "server_cpu_ns_per_request"}}}: what tcp_echo.py measured.
    tcp: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    # {workload: {impl id: {configuration: {"ns_per_op", "note"}}}}: a workload
    # a looplab program also measured once per configuration of the stage
    # ("threadsafe_flood/eventfd/once_per_drain"), next to its own row.
    variants: dict[str, dict[str, dict[str, dict[str, Any]]]] = field(default_factory=dict)
    succeeded: set = field(default_factory=set)  # titles of the jobs that ran
    # {(program, backend): [(benchmark, why not)]}: the backends a program
    # could not measure here (io_uring in a container), each noted once.
    unavailable: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def record(self, workload: str, impl: Implementation, ns: float,
               note: Optional[str] = None, cpu_ns: Optional[float] = None) -> None:
        self.workloads.setdefault(workload, Workload(workload))
        self.ns_per_op.setdefault(workload, {})[impl.id] = ns
        if cpu_ns is not None:
            self.cpu_ns_per_op.setdefault(workload, {})[impl.id] = cpu_ns
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


def stage_implementation(stage: int) -> Implementation:
    """looplab stage NN's own row, compared with asyncio on the newest CPython."""
    return Implementation(f"looplab_s{stage:02d}", f"looplab stage {stage:02d}", "looplab",
                          baseline="cpython_asyncio", stage=stage)


@dataclass
class Report:
    """Everything the Markdown and HTML writers need."""

    results: Results
    header: list[tuple[str, str]]   # (label, value) rows, as header.json has them
    charts: dict[str, list[Path]]   # {workload or "fd_scaling": [chart files]}
    chart_note: Optional[str]
    out_dir: Path
    targets: list[Any] = field(default_factory=list)  # [targets.Target]
