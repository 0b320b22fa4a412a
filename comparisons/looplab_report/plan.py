"""The runs, in order: each stage's C++ benchmark binary, the native C
programs, then each twin under each Python loop (the tcp_echo runs are
echo_plan's)."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from looplab_report import policy
from looplab_report.model import ASYNCIO_EPOLL_ID, Implementation, Results, Workload, stage_implementation
from looplab_report.partial import benchmark_filter

CPP_TIMEOUT_S = 900
NATIVE_TIMEOUT_S = 300
TWIN_TIMEOUT_S = 300


@dataclass
class Job:
    """One program run: a C++ benchmark binary, or one twin under one loop."""

    impl: Implementation
    title: str              # progress line, e.g. "cpython 3.13 asyncio call_soon_batch"
    command: list[str]
    raw: Path               # the JSON file the program writes
    timeout: int
    role: str = "benchmark"  # "benchmark" (ns per op) or "tcp_echo" (tcp_echo.py's figures)
    env: Optional[dict[str, str]] = None  # set in the program's environment
    # Asked just before the run: a reason to skip it (given what ran before), or None.
    skip: Optional[Callable[[Results], Optional[str]]] = None

    def command_text(self) -> str:
        settings = [f"{name}={value}" for name, value in (self.env or {}).items()]
        return " ".join(settings + self.command)


def list_families(binary: Path, name_filter: Optional[str] = None) -> Optional[list[str]]:
    """The benchmark families `binary` registers (the part of each name before
    its first '/': fd_scaling for fd_scaling/epoll/1), in registration order;
    those `name_filter` selects, if given. None if the binary cannot say."""
    command = [str(binary), "--benchmark_list_tests=true"]
    if name_filter:
        command.append(f"--benchmark_filter={name_filter}")
    try:
        listed = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if listed.returncode != 0:
        return None
    families: dict[str, None] = {}
    for line in listed.stdout.splitlines():
        if line.strip():
            families.setdefault(line.strip().split("/")[0], None)
    return list(families) or None


def plan_cpp_jobs(cpp: Sequence[tuple[int, Path]], raw_dir: Path, quick: bool,
                  repetitions: int, results: Results,
                  filters: Optional[dict[int, str]] = None,
                  families: Callable[[Path, Optional[str]], Optional[list[str]]] = list_families
                  ) -> list[Job]:
    """Each stage's bench_sNN, once per benchmark family, each run in a
    process of its own (with Google Benchmark's own repetitions), as each twin
    runs in an interpreter of its own; of the benchmarks `filters` names for
    its stage, if given. A binary that cannot list its benchmarks runs them
    all in one process."""
    jobs = []
    for stage, binary in cpp:
        impl = stage_implementation(stage)
        results.impls[impl.id] = impl
        command = [str(binary), "--benchmark_format=json",
                   f"--benchmark_repetitions={repetitions}",
                   "--benchmark_report_aggregates_only=false"]
        if quick:
            command.append("--benchmark_min_time=0.01")
        # A batch run once before the measured ones: the first batch of a
        # benchmark that queues a million callbacks pays for the memory's
        # first touch (a fault per page), and Google Benchmark would measure
        # it as 25 times slower whenever its estimate left few batches.
        command.append(f"--benchmark_min_warmup_time={0.01 if quick else 0.1}")
        # A workload whose shape (not only its count) shrinks in the twins'
        # --quick, the async_tree family's tree, reads this to shrink alike.
        env = {"LOOPLAB_BENCH_QUICK": "1"} if quick else None
        stage_filter = filters.get(stage) if filters else None
        # A process per family: one benchmark's heap (the pool's free lists,
        # up to a million cached blocks per size, in the order the last
        # workload freed them) would otherwise be the next one's; a task
        # tree measured after the others ran 1.4 times slower than alone.
        names = families(binary, stage_filter)
        if names is None:
            raw = raw_dir / f"{impl.id}.json"
            whole = command + [f"--benchmark_out={raw}"]
            if stage_filter:
                whole.append(f"--benchmark_filter={stage_filter}")
            jobs.append(Job(impl, f"c++ {binary.name}", whole, raw, CPP_TIMEOUT_S, env=env))
            continue
        for family in names:
            raw = raw_dir / f"{impl.id}--{family}.json"
            jobs.append(Job(impl, f"c++ {binary.name} {family}",
                            command + [f"--benchmark_out={raw}",
                                       f"--benchmark_filter={benchmark_filter({family})}"],
                            raw, CPP_TIMEOUT_S, env=env))
    return jobs


def plan_native_jobs(native: Sequence[tuple[Implementation, Path]], raw_dir: Path,
                     quick: bool, repetitions: int, results: Results) -> list[Job]:
    """One run of each native C program (each runs all of its workloads)."""
    jobs = []
    for impl, binary in native:
        results.impls.setdefault(impl.id, impl)
        # Named after the program: an implementation may have several.
        raw = raw_dir / f"{binary.name}.json"
        command = [str(binary), "--out", str(raw), "--repetitions", str(repetitions)]
        if quick:
            command.append("--quick")
        jobs.append(Job(impl, f"native {binary.name}", command, raw, NATIVE_TIMEOUT_S))
    return jobs


def asyncio_epoll_implementation(cpp: Sequence[tuple[int, Path]], python_impls: list[Implementation],
                                 results: Results) -> Optional[Implementation]:
    """asyncio on its default selector (epoll on Linux) on the newest CPython, the
    baseline of the kernel-side backends: planned once a stage with pollers runs."""
    newest = next((impl for impl in python_impls if impl.id == "cpython_asyncio"), None)
    first = policy.load().first_poller_stage
    if newest is None or not any(stage >= first for stage, _ in cpp):
        return None
    impl = Implementation(ASYNCIO_EPOLL_ID, f"{newest.label} (epoll)", "asyncio",
                          baseline="cpython_asyncio", interpreter=newest.interpreter)
    results.impls[impl.id] = impl
    return impl


def twin_job(workload: Workload, impl: Implementation, extra: list[str], raw_dir: Path,
             quick: bool, repetitions: int) -> Job:
    """One twin under one Python loop."""
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
    return Job(impl, title, command, raw, TWIN_TIMEOUT_S)


def too_old(workload: Workload, impl: Implementation) -> bool:
    """Whether `impl`'s interpreter is older than the twin requires (REQUIRES_PYTHON)."""
    required = workload.requires_python
    return required is not None and impl.interpreter.version[:len(required)] < required


def too_old_notes(not_run: dict[tuple[str, tuple[int, ...]], list[str]]) -> list[str]:
    """One note per Python loop and requirement: the twins it did not run."""
    return [f"{label} did not run {', '.join(names)}: "
            f"{'it needs' if len(names) == 1 else 'they need'} Python "
            f"{'.'.join(map(str, required))} or later (REQUIRES_PYTHON in the twin)."
            for (label, required), names in not_run.items()]


def plan_jobs(cpp: Sequence[tuple[int, Path]], twins: list[Workload],
              python_impls: list[Implementation], raw_dir: Path,
              quick: bool, repetitions: int, results: Results,
              native: Sequence[tuple[Implementation, Path]] = (),
              filters: Optional[dict[int, str]] = None) -> list[Job]:
    """The runs, in order: C++ binaries, the native C programs, then each
    workload under each Python loop.

    Running one workload's Python variants back to back means slow drift on the
    machine (other load, clock changes) hits them alike, which keeps their
    ratios honest.
    """
    jobs = plan_cpp_jobs(cpp, raw_dir, quick, repetitions, results, filters)
    jobs += plan_native_jobs(native, raw_dir, quick, repetitions, results)
    for impl in python_impls:
        results.impls[impl.id] = impl
    # The io twins run asyncio on select(), to compare like with like against
    # looplab's select() stage; from the first stage with pollers the kernel-side
    # backends are set against asyncio on its default selector (epoll on Linux), run here too.
    asyncio_epoll = asyncio_epoll_implementation(cpp, python_impls, results)
    # A twin that needs a newer Python than a loop's interpreter (eager tasks
    # need 3.12) is not run there: {(loop, requirement): [workloads]}, a note each.
    not_run: dict[tuple[str, tuple[int, ...]], list[str]] = {}
    for workload in twins:
        results.workloads[workload.name] = workload
        variants = [(impl, []) for impl in python_impls]
        if asyncio_epoll is not None and workload.group in policy.load().epoll_baseline_groups:
            variants.insert(1, (asyncio_epoll, ["--selector", "default"]))
        for impl, extra in variants:
            if too_old(workload, impl):
                not_run.setdefault((impl.label, workload.requires_python), []).append(workload.name)
            else:
                jobs.append(twin_job(workload, impl, extra, raw_dir, quick, repetitions))
    results.warnings += too_old_notes(not_run)
    return jobs
