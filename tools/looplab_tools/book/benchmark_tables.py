"""The tables of @BENCHMARKS(NN)@, from the report's figures: the chapter's
workloads next to CPython asyncio and uvloop, the configurations a stage
measured a workload in, and what the report measures besides (the selector
backends, fd_scaling, the TCP echo servers, the targets)."""
import re

from looplab_report.formatting import format_ns, ratio_text
from looplab_tools.book.describe import md_cell

# Benchmark labels that only say which selector ran (io/pingpong.hpp labels
# every run with it): not a note about work the stage skips.
SELECTOR_NAMES = {"select", "poll", "epoll", "io_uring", "kqueue", "kqueue-shim"}


def benchmark_table(stage, workloads, data):
    """The chapter's workloads: stage NN next to CPython asyncio and uvloop."""
    ours = f"looplab_s{stage.num}"
    summary, impls = data.summary, data.impls
    asyncio_id = "cpython_asyncio"
    uvloop_id = next((i for i, d in impls.items() if d.get("kind") == "uvloop"), None)
    uv_base = impls[uvloop_id].get("compared_with") if uvloop_id else None
    columns = [f"stage {stage.num}", "CPython asyncio", f"stage {stage.num} vs asyncio"]
    if uvloop_id:
        columns += ["uvloop", "uvloop vs asyncio (same interpreter)"]
    # The programs in plain C that measured these workloads (libuv's, ...): a column each.
    measured = [summary.get(name, {}) for name, _ in workloads if ours in summary.get(name, {})]
    natives = [i for i, d in impls.items() if d.get("kind") == "native" and any(i in f for f in measured)]
    columns += [impls[i]["label"] for i in natives]
    lines = ["| workload | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    notes, charts = [], []
    for name, _ in workloads:
        figures = summary.get(name, {})
        if ours not in figures:
            continue
        cells = [format_ns(figures[ours])]
        if asyncio_id in figures:
            cells += [format_ns(figures[asyncio_id]), ratio_text(figures[asyncio_id] / figures[ours])]
        else:
            cells += ["did not run", "n/a"]
        if uvloop_id:
            if uvloop_id in figures and uv_base in figures:
                cells += [format_ns(figures[uvloop_id]), ratio_text(figures[uv_base] / figures[uvloop_id])]
            else:
                cells += ["did not run", "n/a"]
        for native in natives:
            cells.append(f"{format_ns(figures[native])}: stage {stage.num} "
                         f"{ratio_text(figures[native] / figures[ours])}" if native in figures else "n/a")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
        note = impls[ours].get("notes", {}).get(name)
        if note and note not in SELECTOR_NAMES:  # a label that only names the selector is no caveat
            notes.append(f"- `{name}`, stage {stage.num}: {md_cell(note)}")
        for suffix in ("", "-stages"):
            charts += data.chart(f"{name}{suffix}", name + (" across stages" if suffix else ""))
    legend = [f"*stage {stage.num}* is {impls[ours]['label']}"]
    if asyncio_id in impls:
        legend.append(f"*CPython asyncio* is {impls[asyncio_id]['label']}")
    if uvloop_id:
        base = impls.get(uv_base, {}).get("label", uv_base)
        legend.append(f"*uvloop* is {impls[uvloop_id]['label']}, compared with {base} on the same interpreter")
    if natives:
        legend.append("a program in C says how much faster or slower stage " + stage.num + " is than it")
    out = [*lines, "", "In the columns, " + "; ".join(legend) + "."]
    if notes:
        out += ["", "What the benchmark says about itself (it does less than asyncio here):", "", *notes]
    return "\n".join(out + charts)


def variants_table(stage, workloads, data):
    """The chapter's workloads that the stage also measured once per
    configuration ("workload/<configuration>", summary.json's "_variants"):
    a table per workload, one row per configuration, each against the same
    workload on CPython asyncio and in plain C. The configuration the stage's
    own row ran is the one its label names first ("eventfd/once_per_drain: ...")."""
    ours = f"looplab_s{stage.num}"
    by_workload = data.summary.get("_variants") or {}
    parts = []
    for name, _ in workloads:
        variants = (by_workload.get(name) or {}).get(ours)
        if not variants:
            continue
        figures = data.summary.get(name, {})
        default_note = data.impls.get(ours, {}).get("notes", {}).get(name, "")
        natives = [i for i, d in data.impls.items() if d.get("kind") == "native" and i in figures]
        others = [i for i in ("cpython_asyncio", *natives) if i in figures]
        columns = ([f"stage {stage.num}"]
                   + [f"vs {'CPython asyncio' if i == 'cpython_asyncio' else data.label(i)}" for i in others])
        lines = ["| configuration | " + " | ".join(columns) + " | what the benchmark says |",
                 "|---|" + "---:|" * len(columns) + "---|"]
        for variant, entry in variants.items():
            ns = entry["ns_per_op"]
            note = (entry.get("note") or "").removeprefix(f"{variant}: ")
            default = " (the default)" if default_note.startswith(f"{variant}:") else ""
            cells = [format_ns(ns)] + [ratio_text(figures[i] / ns) for i in others] + [md_cell(note)]
            lines.append(f"| `{variant}`{default} | " + " | ".join(cells) + " |")
        parts.append("\n".join([
            f"**{name}, per configuration.** Stage {stage.num} also ran `{name}` once per "
            f"configuration (`{name}/<configuration>`), in ns per operation, each set against the "
            "same workload on CPython asyncio and in plain C where there is a C version "
            "(`comparisons/native/`), from the same run:",
            "",
            *lines,
        ]))
    return "\n\n".join(parts)


def backend_table(stage, data):
    """Stage NN's workloads that ran once per selector backend ("workload/<backend>"
    rows, implementation ids looplab_sNN_<backend>), next to the native C
    programs and the Python loops: one row per implementation, one column per
    workload."""
    ours = f"looplab_s{stage.num}"
    backends = [i for i, d in data.impls.items() if i.startswith(ours + "_") and d.get("backend")]
    if not backends:
        return ""
    tcp = data.summary.get("_tcp_echo") or {}  # shown by tcp_echo_fragment
    workloads = [name for name, figures in data.summary.items()
                 if not name.startswith("_") and name not in tcp and isinstance(figures, dict)
                 and any(b in figures for b in backends)]
    if not workloads:
        return ""
    kinds = {"native": 1, "asyncio": 2, "uvloop": 3}
    rows = [ours] + backends + sorted(
        (i for i, d in data.impls.items() if d.get("kind") in kinds),
        key=lambda i: kinds[data.impls[i]["kind"]])
    lines = ["| implementation | " + " | ".join(f"`{w}`" for w in workloads) + " |",
             "|---|" + "---:|" * len(workloads)]
    for impl_id in rows:
        cells = [format_ns(data.summary[w][impl_id]) if impl_id in data.summary[w] else "—"
                 for w in workloads]
        if all(cell == "—" for cell in cells):
            continue
        label = data.label(impl_id) + (" (default selector)" if impl_id == ours else "")
        lines.append(f"| {md_cell(label)} | " + " | ".join(cells) + " |")
    return "\n".join([
        f"**On every selector.** Stage {stage.num}'s workloads that ran once per backend "
        "(`workload/<backend>`), in ns per operation, next to the same work in plain C where "
        "there is a C version (\"(C)\" rows, `comparisons/native/`: the raw epoll floor is "
        "`epoll_wait()`, `read()` and `write()` and nothing else) and the Python loops:",
        "",
        *lines,
    ])


def fd_scaling_fragment(stage, data):
    """The fd_scaling series: idle descriptors down, backends across, and its chart."""
    series_by_stage = data.summary.get("_fd_scaling") or {}
    if not series_by_stage:
        return ""
    ours = f"looplab_s{stage.num}"
    stage_id = ours if ours in series_by_stage else sorted(series_by_stage)[-1]
    series = series_by_stage[stage_id]
    order = ["select", "poll", "epoll", "io_uring", "kqueue"]
    backends = sorted(series, key=lambda b: order.index(b) if b in order else len(order))
    idles = sorted({int(idle) for points in series.values() for idle in points})
    lines = ["| idle descriptors | " + " | ".join(backends) + " |", "|---:|" + "---:|" * len(backends)]
    for idle in idles:
        cells = [format_ns(series[b][str(idle)]) if str(idle) in series[b] else "—" for b in backends]
        lines.append(f"| {idle:,} | " + " | ".join(cells) + " |")
    which = (f"stage {stage.num}" if stage_id == ours else
             f"{data.label(stage_id)}, the latest stage the report measured (its selectors are stage "
             f"{stage.num}'s)")
    return "\n".join([
        f"**fd_scaling.** One round trip of `reader_pingpong` with N more descriptors watched that "
        f"never become ready, on each selector of {which}, in ns (`fd_scaling/<backend>/<N>`; "
        "select() stops at 1,000, below `FD_SETSIZE`):",
        "",
        *lines,
    ] + data.chart("fd_scaling", "fd_scaling: ns per round trip against idle descriptors watched, "
                                 "one line per selector"))


def tcp_echo_fragment(stage, data):
    """The TCP echo servers: requests per second and server CPU per request, by connection count."""
    by_workload = data.summary.get("_tcp_echo") or {}
    counts = sorted((int(w.rsplit("_", 1)[1]), w) for w in by_workload if re.fullmatch(r"tcp_echo_\d+", w))
    if not counts:
        return ""
    return "\n".join([
        "**tcp_echo.** One shared C++ client keeps C connections busy with 100-byte requests, each "
        "sent once the previous echo is back: requests per second over all connections, and the "
        "CPU time the server process spent per request, with in brackets its share in user space, "
        "outside the kernel (`comparisons/tcp_echo.py`):",
        "",
        *echo_server_table(data, by_workload, counts),
    ] + data.chart(counts[0][1], f"{counts[0][1]}: server CPU per request"))


def tcp_echo_coro_fragment(stage, data):
    """The coroutine echo server (tcp_echo_coro_C) next to asyncio's streams server."""
    by_workload = data.summary.get("_tcp_echo") or {}
    counts = sorted((int(w.rsplit("_", 1)[1]), w) for w in by_workload
                    if re.fullmatch(r"tcp_echo_coro_\d+", w))
    if not counts:
        return ""
    return "\n".join([
        "**tcp_echo_coro.** The coroutine echo server (`examples/tasks/tcp_echo_coro_server.cpp`, a "
        "task per connection, on epoll), driven by the same client as `tcp_echo`, next to asyncio's "
        "streams server, which is written the same way (its rows are its `tcp_echo` runs of the "
        "same report): requests per second over all connections, and the server's CPU time per "
        "request, with in brackets its share in user space:",
        "",
        *echo_server_table(data, by_workload, counts),
    ] + data.chart(counts[0][1], f"{counts[0][1]}: server CPU per request"))


def echo_server_table(data, by_workload, counts):
    """The rows of an echo table: one per server, requests/s and server CPU per request by C."""
    servers = []
    for _, workload in counts:
        for impl_id in by_workload[workload]:
            if impl_id not in servers:
                servers.append(impl_id)
    order = list(data.impls)
    servers.sort(key=lambda i: order.index(i) if i in order else len(order))

    def cell(workload, impl_id, key, fmt):
        value = by_workload[workload].get(impl_id, {}).get(key)
        return fmt(value) if value else "—"

    def cpu_cell(workload, impl_id):
        figures = by_workload[workload].get(impl_id, {})
        total, user = figures.get("server_cpu_ns_per_request"), figures.get("server_user_cpu_ns_per_request")
        if not total:
            return "—"
        if user is None:
            return format_ns(total)
        return f"{format_ns(total)} ({format_ns(user) if user >= 1 else '0'})"

    header = (["server"] + [f"requests/s, C={c}" for c, _ in counts]
              + [f"server CPU ns/request, C={c}" for c, _ in counts])
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for impl_id in servers:
        cells = ([cell(w, impl_id, "requests_per_second", lambda v: f"{v:,.0f}") for _, w in counts]
                 + [cpu_cell(w, impl_id) for _, w in counts])
        lines.append(f"| {md_cell(data.label(impl_id))} | " + " | ".join(cells) + " |")
    return lines


def targets_fragment(stage, data):
    """The goals this stage set (summary.json's _targets of its stage), met
    or not, as the report checked them on its figures."""
    targets = [t for t in data.summary.get("_targets") or []
               if t.get("text") and t.get("stage") == stage.number and t.get("value") is not None]
    if not targets:
        return ""
    return "\n".join(["**Targets.** What the stage set out to reach, checked by the report on "
                      "these figures:", ""]
                     + [f"- {md_cell(t['text'])}" for t in targets])


EXTRA_FRAGMENTS = {"backends": backend_table, "fd_scaling": fd_scaling_fragment,
                   "tcp_echo": tcp_echo_fragment, "tcp_echo_coro": tcp_echo_coro_fragment}
