"""@BENCHMARKS(NN)@: the workloads chapter NN adds with stage NN's figures from
the benchmark report, or, without a report, the workloads and how to measure them."""
import re
import shutil

from looplab_tools.book.benchmark_tables import EXTRA_FRAGMENTS, benchmark_table, targets_fragment, variants_table
from looplab_tools.book.config import REFERENCE_REPORT, ROOT, rel
from looplab_tools.book.describe import benchmark_comment, first_docstring_line, md_cell
from looplab_tools.book.report_data import read_report, read_report_or_reference
from looplab_tools.book.sources import groups_since, stages


def workloads_of(group):
    """[(name, description)] of a group: its Python twins and its C++ benchmarks.
    A benchmark file that registers its benchmarks at run time (no BENCHMARK()
    macro, e.g. one variant per selector) is one workload, named and described
    by its opening `// name: what it measures` comment."""
    found = {}
    for twin in sorted((ROOT / "comparisons" / "asyncio" / group).glob("*.py")):
        if not twin.name.startswith("_"):
            found[twin.stem] = first_docstring_line(twin)
    for source in sorted((ROOT / "bench" / group).glob("*.cpp")):
        text = source.read_text()
        names = re.findall(r"^BENCHMARK\((\w+)\)", text, re.M)
        if not names:
            opening = re.match(r"^//\s*(\w+):", text)
            names = [opening.group(1)] if opening else []
        for name in names:
            if name not in found:
                what = benchmark_comment(text, name)
                found[name] = f"{what}; C++ only, no asyncio twin" if what else "C++ only, no asyncio twin"
    return list(found.items())


# What the report measures besides the workloads of its tables, and the group
# whose chapter shows it: the group that brought what it measures. (The
# selector backends come with chapter 4's group: its chapter shows chapter 3's
# workloads once per backend next to the plain-C floors, the fd_scaling
# series and the TCP echo servers.) Every chapter also lists the targets its
# stage set, met or not.
REPORT_EXTRAS = {"pollers": ("backends", "fd_scaling", "tcp_echo"),
                 # Chapter 6's coroutine echo server, next to asyncio's streams server.
                 "tasks": ("tcp_echo_coro",)}
# How the fallback (no report) lists each extra: [(workload, what one operation is)].
EXTRA_WORKLOADS = {
    "backends": [("reader_pingpong/<backend>, reader_pingpong_idle1000/<backend>",
                  "chapter 3's two workloads once on each selector backend (`bench/io/io_bench.cpp`), "
                  "next to the same ping-pong written in plain C on epoll and on libuv "
                  "(`comparisons/native/`)")],
    "tcp_echo": [("tcp_echo_1, tcp_echo_10, tcp_echo_100",
                  "one 100-byte request echoed by a TCP server on 127.0.0.1, with 1, 10 or 100 "
                  "connections (`comparisons/tcp_echo.py`, servers in `comparisons/echo/` and "
                  "`examples/`); wall time and server CPU per request")],
    "tcp_echo_coro": [("tcp_echo_coro_1, tcp_echo_coro_10",
                       "the same requests to the coroutine echo server, a task per connection "
                       "(`examples/tasks/tcp_echo_coro_server.cpp`, on epoll), next to asyncio's "
                       "streams server (`comparisons/echo/`); wall time and server CPU per request")],
}


def no_report(stage, workloads, why):
    """The fragment without figures: why, how to get them, and the workloads."""
    rows = [f"| `{name}` | {md_cell(text)} |" for name, text in workloads]
    return "\n".join([
        f"\\note {why} So this page has no figures. To see how stage {stage.num} compares with "
        "CPython's asyncio and uvloop on these workloads, run `make report` (the full run, a few "
        "minutes) or `make report QUICK=1` (a short smoke run), then `make book` again.",
        "",
        f"The workloads chapter {stage.number} is measured on (each has a Google Benchmark "
        f"program in `bench/`, and a Python twin of the same name in `comparisons/asyncio/` "
        "unless it says otherwise):",
        "",
        "| workload | what one operation is |",
        "|---|---|",
        *rows,
    ])


def generate_benchmarks(report_dir, edition, reference_dir=REFERENCE_REPORT):
    """{number: Markdown} for @BENCHMARKS(NN)@, from this machine's report or,
    without one, from the reference report committed with the book."""
    charts_out = edition.generated / "charts"
    shutil.rmtree(charts_out, ignore_errors=True)  # charts of an older report must not linger
    charts_out.mkdir(parents=True)
    data = read_report_or_reference(report_dir, reference_dir, charts_out)
    # This machine's run of some stages (make report STAGES=...) measured
    # only those: the other chapters show the reference's figures.
    partial = data is not None and not data.reference and "stages" in data.header
    reference = read_report(reference_dir, charts_out, reference=True) if partial else None
    fragments = {}
    for number, stage in stages().items():
        chosen = data
        if reference is not None and f"looplab_s{number:02d}" not in data.impls:
            chosen = reference
        fragments[number] = chapter_benchmarks(stage, report_dir if chosen is data else reference_dir, chosen)
        (edition.generated / f"benchmarks_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments


def chapter_benchmarks(stage, report_dir, data):
    """The fragment of one chapter: its workloads with the report's figures
    (`data`; None without a report), or, without them, how to get them."""
    number = stage.number
    groups = groups_since(number)
    workloads = [w for group in groups for w in workloads_of(group)]
    extras = [extra for group in groups for extra in REPORT_EXTRAS.get(group, ())]
    listed = workloads + [w for extra in extras for w in EXTRA_WORKLOADS.get(extra, [])]
    ours = f"looplab_s{number:02d}"
    if not listed:
        return f"Chapter {number} adds no benchmark workload."
    if data is None:
        return no_report(stage, listed, f"The benchmark report has not been built "
                         f"on this machine (there is no `{rel(report_dir)}/summary.json`).")
    if ours not in data.impls:
        return no_report(stage, listed, f"The benchmark report in `{rel(report_dir)}` "
                         f"has no figures for stage {stage.num} (it was built before "
                         "this stage existed).")
    parts = []
    tabled = [w for w in workloads if ours in data.summary.get(w[0], {})]
    if tabled:
        parts.append(benchmark_table(stage, tabled, data))
        variants = variants_table(stage, tabled, data)
        if variants:
            parts.append(variants)
    for extra in extras:
        part = EXTRA_FRAGMENTS[extra](stage, data)
        if part:
            parts.append(part)
    if not parts:
        return no_report(stage, listed, f"The benchmark report in "
                         f"`{rel(report_dir)}` has no figures for stage {stage.num}'s "
                         "workloads.")
    targets = targets_fragment(stage, data)  # the goals this stage set, met or not
    if targets:
        parts.append(targets)
    return "\n\n".join([report_intro(data, number), *parts, report_outro(data)])


def run_of(data, number):
    """The header of the run that measured stage `number`: the report's own,
    or that of a run of some stages merged into it (`make reference-report`)."""
    for run in data.header.get("partial runs", []):
        if number in {int(part) for part in run.get("stages", "").split(",") if part.strip()}:
            return run
    return data.header


def report_intro(data, number):
    """Where the figures come from: the report (this machine's, or the
    reference committed with the book), its date, mode and machine."""
    run = run_of(data, number)
    when = ", ".join(f"{key}: {run[key]}" for key in ("date", "mode") if key in run)
    if run is not data.header:
        when += f"; a run of stages {run['stages']}, merged into it"
    which = ("the reference report committed with the book" if data.reference
             else "this machine's report")
    return (f"Nanoseconds per operation (median), from {which}, `{rel(data.report_dir)}`"
            + (f" ({md_cell(when)})" if when else "") + ". "
            + (f"Machine: {md_cell(run['machine'])}. " if "machine" in run else "")
            + "Ratios are measured in the same run; the absolute times mean little on another machine.")


def report_outro(data):
    """Where the whole report is, or how to measure this machine."""
    if data.reference:
        return ("To measure your own machine, run `make report` (a few minutes), then `make book` "
                "again: its figures replace these, and this paragraph says so.")
    return ("The whole report, with every workload and how it was measured: "
            f"`{rel(data.report_dir)}/index.html` (`make report`). Without it, the book shows the "
            f"reference report committed in `{rel(REFERENCE_REPORT)}`.")
