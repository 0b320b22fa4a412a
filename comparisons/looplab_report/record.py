"""A run's figures into the Results: which workload and which row each
benchmark is, fd_scaling's points, tcp_echo's figures, and the rows' order."""
from __future__ import annotations

import statistics
from typing import Optional

from looplab_report import policy
from looplab_report.gbench import Outcome
from looplab_report.model import Implementation, Results
from looplab_report.plan import Job


def backend_of(key: str) -> Optional[str]:
    """"epoll" for "reader_pingpong/epoll" or "fd_scaling/epoll/100", else None."""
    parts = key.split("/")
    return parts[1] if len(parts) > 1 and parts[1] in policy.load().backends else None


def fd_scaling_point(key: str) -> Optional[tuple[str, int]]:
    """(backend, idle descriptors) for "fd_scaling/<backend>/<idle>" ("idle:100" too), else None."""
    parts = key.split("/")
    if len(parts) != 3 or parts[0] != "fd_scaling" or parts[1] not in policy.load().backends:
        return None
    try:
        return parts[1], int(parts[2].rsplit(":", 1)[-1])
    except ValueError:
        return None


def record_one(impl: Implementation, key: str, ns: float, note: Optional[str], results: Results,
               folded: dict[str, list[tuple[float, Optional[float]]]],
               unavailable: dict[str, list[tuple[str, str]]], cpu_ns: Optional[float] = None) -> None:
    """One benchmark of a program: a row, a backend row, an fd_scaling point, a
    fallback (into `unavailable`), or an argument of a workload (into `folded`,
    with its CPU time per op if it has one)."""
    looplab = impl.kind == "looplab"
    point = fd_scaling_point(key) if looplab else None
    backend = backend_of(key) if looplab else None
    if backend is not None and note in policy.load().backends and note != backend:
        # The label is the selector that ran: the loop fell back from an
        # unavailable backend (io_uring blocked, say) to another one.
        unavailable.setdefault(backend, []).append(
            (key, f"it ran on {note} instead (the loop fell back)"))
    elif point is not None:
        results.fd_scaling.setdefault(impl.id, {}).setdefault(point[0], {})[point[1]] = ns
    elif backend is not None and key.count("/") == 1:
        backend_impl = results.backend_implementation(impl, backend)
        results.record(key.split("/")[0], backend_impl, ns, note if note != backend else None, cpu_ns)
    else:
        folded.setdefault(key.split("/")[0], []).append((ns, cpu_ns))


def record_benchmarks(job: Job, outcome: Outcome, results: Results) -> list[str]:
    """Put a benchmark program's figures into `results`; return what it did not
    measure that it should have (its errors, except on one backend only).

    From a looplab binary: "workload" is the stage's row, "workload/<backend>"
    the row of "looplab stage NN (<backend>)", "fd_scaling/<backend>/<idle>"
    goes to results.fd_scaling. Any other "name/arg" counts as workload "name"
    (the median over its arguments), unless the program also measured "name"
    itself: then "name" is the row and "name/arg" are variants of it (another
    configuration), in results.variants (record_variants).
    """
    folded: dict[str, list[tuple[float, Optional[float]]]] = {}
    # {backend: [(benchmark, why not)]}: what a backend could not measure here.
    unavailable: dict[str, list[tuple[str, str]]] = {}
    for key, metrics in outcome.metrics.items():
        if "real_time" in metrics:
            record_one(job.impl, key, metrics["real_time"], outcome.labels.get(key), results,
                       folded, unavailable, metrics.get("cpu_time"))
    for workload, values in folded.items():
        if workload in outcome.metrics:  # its own row; "workload/arg" are variants
            own = outcome.metrics[workload]
            values = [(own["real_time"], own.get("cpu_time"))]
            record_variants(job.impl, workload, outcome, results)
            note = outcome.labels.get(workload)
        else:
            note = next((label for key, label in outcome.labels.items()
                         if key.split("/")[0] == workload), None)
        cpu = [cpu_ns for _, cpu_ns in values if cpu_ns is not None]
        results.record(workload, job.impl, statistics.median(ns for ns, _ in values), note,
                       statistics.median(cpu) if len(cpu) == len(values) else None)
    problems = []
    for key, message in sorted(outcome.errors.items()):
        if job.impl.kind == "looplab" and backend_of(key) is not None:
            unavailable.setdefault(backend_of(key), []).append((key, message))
        else:
            problems.append(f"{key}: {message}")
    note_unavailable(program_title(job), unavailable, results)
    return problems


def record_variants(impl: Implementation, workload: str, outcome: Outcome, results: Results) -> None:
    """The variants of a workload the program also measured as itself
    ("threadsafe_flood/eventfd/once_per_drain" next to "threadsafe_flood"):
    each configuration's ns per op and label, into results.variants. A
    backend row or an fd_scaling point is not a variant."""
    prefix = workload + "/"
    for key, metrics in outcome.metrics.items():
        if not key.startswith(prefix) or "real_time" not in metrics:
            continue
        if impl.kind == "looplab" and (backend_of(key) is not None or fd_scaling_point(key) is not None):
            continue
        entry: dict = {"ns_per_op": metrics["real_time"]}
        if outcome.labels.get(key):
            entry["note"] = outcome.labels[key]
        results.variants.setdefault(workload, {}).setdefault(impl.id, {})[key[len(prefix):]] = entry


def program_title(job: Job) -> str:
    """The program a job ran: "c++ bench_s10" for the job of one of its
    families, "c++ bench_s10 async_tree_none"."""
    words = job.title.split(" ")
    return " ".join(words[:2]) if words[0] == "c++" else job.title


def unavailable_note(program: str, backend: str, errors: list[tuple[str, str]]) -> str:
    (key, message), more = sorted(errors)[0], len(errors) - 1
    others = f" and {more} more {backend} benchmark{'s' if more > 1 else ''}" if more else ""
    return f"{program}: {backend} was not measured ({key}{others}): {message}"


def note_unavailable(program: str, unavailable: dict[str, list[tuple[str, str]]],
                     results: Results) -> None:
    """One note per program and backend that cannot run here (io_uring in a
    container, say): a note, not a failure. A program that runs once per
    benchmark family updates its note instead of adding one per family."""
    for backend, errors in unavailable.items():
        known = results.unavailable.setdefault((program, backend), [])
        old = unavailable_note(program, backend, known) if known else None
        known.extend(errors)
        new = unavailable_note(program, backend, known)
        if old in results.warnings:
            results.warnings[results.warnings.index(old)] = new
        else:
            results.warnings.append(new)


def record_tcp_echo(job: Job, outcome: Outcome, results: Results) -> list[str]:
    """Put tcp_echo.py's figures (tcp_echo_1, _10, _100) into `results`."""
    for key, metrics in outcome.metrics.items():
        wall = metrics.get("real_time")
        if not wall:
            continue
        workload = key.split("/")[0]
        cpu = metrics.get("server_cpu_ns_per_request", metrics.get("cpu_time"))
        figures = {"ns_per_request": wall,
                   "requests_per_second": metrics.get("requests_per_second", 1e9 / wall)}
        if cpu is not None:
            figures["server_cpu_ns_per_request"] = cpu
        if metrics.get("server_user_cpu_ns_per_request") is not None:
            figures["server_user_cpu_ns_per_request"] = metrics["server_user_cpu_ns_per_request"]
        results.tcp.setdefault(workload, {})[job.impl.id] = figures
        results.record(workload, job.impl, wall)
        results.workloads[workload].group = "tcp_echo"
    return [f"{key}: {message}" for key, message in sorted(outcome.errors.items())]


def add_twin_rows_to_coro_tables(results: Results) -> None:
    """Repeat the rows of the coroutine server's asyncio twin (streams) of
    tcp_echo_<C> in <prefix>_<C>.

    looplab's coroutine server is measured as tcp_echo_coro_<C>; its twin,
    asyncio's streams server, was measured as tcp_echo_<C> by the same driver
    with the same client and request counts, so those figures are set beside
    it rather than measured twice."""
    coro = policy.load().coro_echo
    for workload in list(results.tcp):
        if not workload.startswith(f"{coro.prefix}_"):
            continue
        source = f"tcp_echo_{workload[len(coro.prefix) + 1:]}"
        for impl_id, figures in results.tcp.get(source, {}).items():
            if impl_id.endswith(f"_{coro.twin}") and impl_id in results.impls:
                results.tcp[workload][impl_id] = figures
                results.record(workload, results.impls[impl_id], figures["ns_per_request"])


def sort_implementations(results: Results) -> None:
    """Table order: looplab stages, each followed by its backends; the native
    programs; then the Python loops in the order they were planned."""
    rules = policy.load()

    def key(item: tuple[int, Implementation]):
        index, impl = item
        if impl.kind == "looplab":
            backend = -1 if impl.backend is None else rules.backend_rank(impl.backend)
            return (0, impl.stage or 0, backend, index)
        return (1 if impl.kind == "native" else 2, 0, 0, index)
    ordered = sorted(enumerate(results.impls.values()), key=key)
    results.impls = {impl.id: impl for _, impl in ordered}
