"""report.md: the whole report as Markdown (charts as links into charts/)."""
from __future__ import annotations

from looplab_report import prose, tables, targets
from looplab_report.model import Report


def markdown_cell(text: str) -> str:
    """Text that cannot break a Markdown table row."""
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(header: list[str], rows: list[list[str]], numeric: set) -> list[str]:
    """A Markdown table, then a blank line; the columns whose index is in `numeric` align right."""
    lines = ["| " + " | ".join(markdown_cell(cell) for cell in header) + " |",
             "|" + "|".join("---:" if i in numeric else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def markdown_charts(report: Report, key: str) -> list[str]:
    lines = []
    for chart in report.charts.get(key, []):
        lines += [f"![{chart.stem}]({chart.relative_to(report.out_dir).as_posix()})", ""]
    return lines


def paragraphs(texts: list[str]) -> list[str]:
    return [line for text in texts for line in (text, "")]


def header_markdown(report: Report) -> list[str]:
    lines = [f"# {prose.TITLE}", ""]
    lines += [f"- **{label}**: {value}" for label, value in report.header]
    return lines + ["", f"> {prose.RATIO_NOTE}", ""]


def problems_markdown(report: Report) -> list[str]:
    lines = []
    notes = report.results.warnings + ([report.chart_note] if report.chart_note else [])
    if notes:
        lines += ["## Notes", ""] + [f"- {note}" for note in notes] + [""]
    if report.results.failures:
        lines += ["## Failed runs", ""]
        for failure in report.results.failures:
            lines += ["```", failure, "```", ""]
    return lines


def targets_markdown(report: Report) -> list[str]:
    if not report.targets:
        return []
    text = prose.targets_text(*targets.stage_span(target.spec for target in report.targets))
    return (["## Targets", "", text, ""]
            + markdown_table(tables.TARGET_HEADER, tables.target_rows(report.targets),
                             tables.TARGET_NUMERIC))


def how_to_read_markdown(report: Report) -> list[str]:
    return ["## How to read this", ""] + [f"- {text}" for text in prose.how_to_read(report.results)] + [""]


def workloads_markdown(report: Report) -> list[str]:
    lines = []
    for workload in tables.workload_order(report.results):
        lines += [f"## {workload.name}", ""] + paragraphs(prose.description_paragraphs(workload))
        lines += markdown_table(*tables.workload_table(workload.name, report.results),
                                tables.WORKLOAD_NUMERIC)
        lines += markdown_charts(report, workload.name)
    return lines


def fd_scaling_markdown(report: Report) -> list[str]:
    stage_id = tables.fd_scaling_latest(report.results)
    if stage_id is None:
        return []
    header, rows = tables.fd_scaling_rows(report.results)
    text = prose.FD_SCALING_TEXT.format(stage=report.results.impls[stage_id].label)
    return (["## fd_scaling", "", text, ""]
            + markdown_table(header, rows, set(range(len(header))))
            + markdown_charts(report, "fd_scaling"))


def tcp_echo_markdown(report: Report) -> list[str]:
    results = report.results
    if not results.tcp:
        return []
    lines = ["## tcp_echo", ""] + paragraphs(prose.TCP_ECHO_TEXT)
    for workload in sorted(results.tcp, key=tables.tcp_workload_order):
        lines += [f"### {workload}", ""]
        lines += markdown_table(tables.TCP_HEADER, [list(row) for row in tables.tcp_rows(workload, results)],
                                tables.TCP_NUMERIC)
        lines += markdown_charts(report, workload)
    return lines


def reproduce_markdown() -> list[str]:
    lines = ["## How to reproduce", ""]
    lines += [f"- `{command}`: {what}" for command, what in prose.HOW_TO_REPRODUCE]
    return lines + ["", "Raw Google Benchmark JSON is in `raw/` (compare two files with "
                    "Google Benchmark's `tools/compare.py benchmarks A.json B.json`); "
                    "`summary.json` holds the medians, keyed by the ids in "
                    "`implementations.json`.", ""]


def write_markdown(report: Report) -> str:
    """The text of report.md."""
    lines = (header_markdown(report) + problems_markdown(report) + targets_markdown(report)
             + how_to_read_markdown(report) + workloads_markdown(report)
             + fd_scaling_markdown(report) + tcp_echo_markdown(report) + reproduce_markdown())
    return "\n".join(lines)
