"""The rows of every table, as text cells, for the Markdown and the HTML alike:
a workload's and its variants', tcp_echo's, fd_scaling's, async_tree's and the targets'."""
from __future__ import annotations

from typing import Optional

from looplab_report import policy
from looplab_report.formatting import cpu_ratio_text, format_ns, ratio_text
from looplab_report.model import ASYNCIO_EPOLL_ID, Implementation, Results, Workload

WORKLOAD_HEADER = ["implementation", "ns/op", "ratio", "compared with", "note"]
WORKLOAD_NUMERIC = {1, 2}
TCP_HEADER = ["implementation", "ns/request", "requests/s", "server CPU ns/request",
              "of which user space", "server CPU ratio", "compared with"]
TCP_NUMERIC = {1, 2, 3, 4, 5}
# A workload measured once per configuration of a stage (results.variants).
VARIANT_HEADER = ["implementation", "configuration", "ns/op", "note"]
VARIANT_NUMERIC = {2}
TARGET_HEADER = ["target", "measured", "goal", "status"]
TARGET_NUMERIC = {1}
# async_tree: looplab's row is compared with asyncio on the newest CPython.
ASYNC_TREE_BASELINE = "cpython_asyncio"


def has_notes(workload: str, results: Results) -> bool:
    return bool(results.notes.get(workload))


def workload_header(workload: str, results: Results) -> list[str]:
    """A workload table's columns: "note" only when a row has one."""
    return WORKLOAD_HEADER if has_notes(workload, results) else WORKLOAD_HEADER[:4]


def table_rows(workload: str, results: Results) -> list[tuple[str, str, str, str, str]]:
    """(implementation, ns/op, ratio, compared with, note) for one workload."""
    figures = results.ns_per_op.get(workload, {})
    rows = []
    for impl in results.impls.values():
        if impl.id not in figures:
            continue
        ns = figures[impl.id]
        baseline = impl.baseline
        if baseline == ASYNCIO_EPOLL_ID and baseline not in figures:
            # The twin ran only on asyncio's default selector, which is epoll.
            baseline = results.impls[ASYNCIO_EPOLL_ID].baseline
        if baseline is None:
            ratio, against = "1× (baseline)", ""
        elif baseline in figures:
            ratio = ratio_text(figures[baseline] / ns)
            against = results.impls[baseline].label
            if impl.kind == "uvloop":
                against += " (same interpreter)"
        else:
            ratio, against = "n/a", f"{results.impls[baseline].label} did not run"
        note = results.notes.get(workload, {}).get(impl.id, "")
        rows.append((impl.label, format_ns(ns), ratio, against, note))
    return rows


def workload_table(workload: str, results: Results) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of a workload's table, the note column only when needed."""
    header = workload_header(workload, results)
    return header, [list(row[:len(header)]) for row in table_rows(workload, results)]


def variant_rows(workload: str, results: Results) -> list[list[str]]:
    """(implementation, configuration, ns/op, note) for each variant of a workload."""
    rows = []
    for impl_id, variants in results.variants.get(workload, {}).items():
        label = results.impls[impl_id].label if impl_id in results.impls else impl_id
        for variant, entry in variants.items():
            rows.append([label, variant, format_ns(entry["ns_per_op"]), entry.get("note", "")])
    return rows


def tcp_baseline(impl: Implementation, figures: dict[str, dict],
                 workload: str = "") -> Optional[str]:
    """What a tcp_echo row is compared with: its own baseline, except that a row
    compared with "cpython_asyncio" (looplab, native) is compared with asyncio's
    Protocol server on the newest CPython, the lowest-level asyncio server.

    In the coroutine server's tables (tcp_echo_coro_C) its twin on the newest
    CPython (asyncio's streams server) is the baseline: looplab's coroutine
    server is compared with it, and the other rows with their usual baselines
    (uvloop with asyncio on its own interpreter)."""
    coro = policy.load().coro_echo
    if workload.startswith(f"{coro.prefix}_"):
        return None if impl.id == f"cpython_asyncio_{coro.twin}" else impl.baseline
    if impl.kind in ("looplab", "native"):
        return "cpython_asyncio_protocol"  # whichever selector the loop itself uses
    if impl.baseline is not None and impl.baseline not in figures \
            and f"{impl.baseline}_protocol" in figures:
        return f"{impl.baseline}_protocol"
    return impl.baseline


def tcp_ratio(impl: Implementation, baseline: Optional[str], figures: dict[str, dict],
              results: Results) -> tuple[str, str]:
    """(server CPU ratio, compared with) of a tcp_echo row."""
    if baseline is None:
        return "1× (baseline)", ""
    if baseline not in figures:
        label = results.impls[baseline].label if baseline in results.impls else baseline
        return "n/a", f"{label} did not run"
    cpu = figures[impl.id].get("server_cpu_ns_per_request")
    base_cpu = figures[baseline].get("server_cpu_ns_per_request")
    if not (cpu and base_cpu):
        return "n/a", results.impls[baseline].label
    against = results.impls[baseline].label
    return cpu_ratio_text(base_cpu / cpu), against + (" (same interpreter)" if impl.kind == "uvloop" else "")


def tcp_rows(workload: str, results: Results) -> list[tuple[str, str, str, str, str, str, str]]:
    """(implementation, ns/request, requests/s, server CPU ns/request, of which in
    user space, server CPU ratio, compared with) for one tcp_echo workload."""
    figures = results.tcp.get(workload, {})
    rows = []
    for impl in results.impls.values():
        if impl.id not in figures:
            continue
        mine = figures[impl.id]
        cpu, user = mine.get("server_cpu_ns_per_request"), mine.get("server_user_cpu_ns_per_request")
        ratio, against = tcp_ratio(impl, tcp_baseline(impl, figures, workload), figures, results)
        rows.append((impl.label, format_ns(mine["ns_per_request"]),
                     f"{mine['requests_per_second']:,.0f}",
                     format_ns(cpu) if cpu is not None else "n/a",
                     format_ns(user) if user is not None else "n/a", ratio, against))
    return rows


def tcp_workload_order(workload: str):
    """tcp_echo_1, tcp_echo_10, tcp_echo_100, then tcp_echo_coro_1, _10: by
    server style, then connection count."""
    prefix, _, count = workload.rpartition("_")
    return (prefix != "tcp_echo", prefix, int(count) if count.isdigit() else 1 << 30, workload)


def fd_scaling_latest(results: Results) -> Optional[str]:
    """The id of the latest looplab stage that measured fd_scaling, if any."""
    stages = [impl_id for impl_id in results.fd_scaling
              if impl_id in results.impls and results.fd_scaling[impl_id]]
    return max(stages, key=lambda impl_id: results.impls[impl_id].stage or 0) if stages else None


def fd_scaling_backends(series: dict[str, dict[int, float]]) -> list[str]:
    """The backends of an fd_scaling series, in the policy's order."""
    return sorted(series, key=policy.load().backend_rank)


def fd_scaling_rows(results: Results) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the fd_scaling table: idle descriptors down, backends across."""
    series = results.fd_scaling[fd_scaling_latest(results)]
    backends = fd_scaling_backends(series)
    idles = sorted({idle for points in series.values() for idle in points})
    rows = [[f"{idle:,}"] + [format_ns(series[b][idle]) if idle in series[b] else "—"
                             for b in backends] for idle in idles]
    return ["idle descriptors"] + backends, rows


def is_async_tree(workload: str) -> bool:
    """Whether a workload is one of the async_tree table's (not a section of its own)."""
    return policy.load().async_tree.workload_parts(workload) is not None


def async_tree_workloads(results: Results) -> list[tuple[str, str, str]]:
    """(workload, variant, flavour) of each async_tree workload measured, in the
    policy's order: variant by variant, lazy, eager, then TaskGroup."""
    tree = policy.load().async_tree
    names = [(f"{tree.prefix}{variant}{suffix}", variant, flavour)
             for variant in tree.variants for suffix, flavour in tree.flavours]
    return [name for name in names if name[0] in results.ns_per_op]


def async_tree_latest(results: Results) -> Optional[str]:
    """The id of the latest looplab stage (its own row) that measured an async_tree workload."""
    ids = {impl_id for workload, _, _ in async_tree_workloads(results)
           for impl_id in results.ns_per_op[workload]
           if impl_id in results.impls and results.impls[impl_id].kind == "looplab"
           and results.impls[impl_id].backend is None}
    return max(ids, key=lambda impl_id: results.impls[impl_id].stage or 0) if ids else None


def async_tree_columns(results: Results) -> list[str]:
    """The implementations of the async_tree table: the latest looplab stage that
    ran it and asyncio on the newest CPython, those that measured it."""
    measured = {impl_id for workload, _, _ in async_tree_workloads(results)
                for impl_id in results.ns_per_op[workload]}
    return [impl_id for impl_id in (async_tree_latest(results), ASYNC_TREE_BASELINE)
            if impl_id in measured and impl_id in results.impls]


def async_tree_rows(results: Results) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the async_tree table: a row per variant and flavour;
    CPU ns per task of each implementation, their ratio (when both ran), then
    wall ns per task."""
    impls = async_tree_columns(results)
    labels = [results.impls[impl_id].label for impl_id in impls]
    compared = len(impls) == 2
    header = (["variant", "tasks"] + [f"{label} CPU ns/task" for label in labels]
              + (["CPU ratio"] if compared else []) + [f"{label} wall ns/task" for label in labels])
    rows = []
    for workload, variant, flavour in async_tree_workloads(results):
        cpu, wall = results.cpu_ns_per_op.get(workload, {}), results.ns_per_op[workload]
        row = [variant, flavour] + [format_ns(cpu[i]) if i in cpu else "—" for i in impls]
        if compared:
            looplab, baseline = impls
            measured = looplab in cpu and baseline in cpu and cpu[looplab] > 0
            row.append(cpu_ratio_text(cpu[baseline] / cpu[looplab]) if measured else "n/a")
        rows.append(row + [format_ns(wall[i]) if i in wall else "—" for i in impls])
    return header, rows


def target_rows(targets: list) -> list[list[str]]:
    """(target, measured, goal, status) per targets.Target."""
    return [[target.what, target.measured, target.goal, target.status] for target in targets]


def workload_order(results: Results) -> list[Workload]:
    """Workloads with twins in group/name order, then C++-only ones (tcp_echo and
    async_tree have their own sections)."""
    measured = [w for w in results.workloads.values()
                if w.name in results.ns_per_op and w.name not in results.tcp
                and not is_async_tree(w.name)]
    return sorted(measured, key=lambda w: (w.twin is None, w.group, w.name))
