"""index.html: the same content as report.md, self-contained (charts inlined)."""
from __future__ import annotations

import base64
from html import escape as e
from typing import Callable, Optional

from looplab_report import prose, tables, targets
from looplab_report.model import Report

CSS = """
body { font-family: system-ui, sans-serif; max-width: 62em; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.3em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.7em; text-align: left; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; }
dl.header dt { font-weight: bold; }
dl.header dd { margin: 0; }
.note { background: #f6f8fa; border-left: 4px solid #2b6ca3; padding: 0.5em 1em; }
.failure { background: #fff0f0; border-left: 4px solid #c33; padding: 0.5em 1em;
           white-space: pre-wrap; font-family: monospace; }
img.chart { max-width: 100%; display: block; margin: 1em 0; }
code { background: #f3f3f3; padding: 0 0.2em; }
td.note-cell { font-size: 0.9em; color: #555; }
td.met { color: #1e7b34; font-weight: bold; }
td.not-met { color: #b3261e; font-weight: bold; }
td.unmeasured { color: #777; }
"""


def html_table(header: list[str], rows: list[list[str]], numeric: set,
               classes: Optional[dict[int, Callable[[str], str]]] = None) -> list[str]:
    """An HTML table; the columns whose index is in `numeric` align right.
    `classes` may give a cell's CSS class from its text, per column."""
    parts = ["<table><tr>" + "".join(f"<th>{e(cell)}</th>" for cell in header) + "</tr>"]
    for row in rows:
        cells = []
        for index, cell in enumerate(row):
            names = (["num"] if index in numeric else []) + (
                [classes[index](cell)] if classes and index in classes else [])
            names = [name for name in names if name]
            attribute = f' class="{" ".join(names)}"' if names else ""
            cells.append(f"<td{attribute}>{e(cell)}</td>")
        parts.append("<tr>" + "".join(cells) + "</tr>")
    return parts + ["</table>"]


def html_charts(report: Report, key: str) -> list[str]:
    parts = []
    for chart in report.charts.get(key, []):
        data = base64.b64encode(chart.read_bytes()).decode("ascii")
        parts += [f'<img class="chart" alt="{e(chart.stem)}" '
                  f'src="data:image/svg+xml;base64,{data}">']
    return parts


def status_class(status: str) -> str:
    return {"met": "met", "not met": "not-met"}.get(status, "unmeasured")


def header_html(report: Report) -> list[str]:
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{prose.TITLE}</title>", f"<style>{CSS}</style></head><body>",
             f"<h1>{prose.TITLE}</h1>", '<dl class="header">']
    parts += [f"<dt>{e(label)}</dt><dd>{e(value)}</dd>" for label, value in report.header]
    return parts + ["</dl>", f'<p class="note">{e(prose.RATIO_NOTE)}</p>']


def problems_html(report: Report) -> list[str]:
    parts = []
    notes = report.results.warnings + ([report.chart_note] if report.chart_note else [])
    if notes:
        parts += ["<h2>Notes</h2>", "<ul>"] + [f"<li>{e(n)}</li>" for n in notes] + ["</ul>"]
    if report.results.failures:
        parts += ["<h2>Failed runs</h2>"]
        parts += [f'<div class="failure">{e(failure)}</div>' for failure in report.results.failures]
    return parts


def targets_html(report: Report) -> list[str]:
    if not report.targets:
        return []
    text = prose.targets_text(*targets.stage_span(target.spec for target in report.targets))
    return (['<h2 id="targets">Targets</h2>', f"<p>{e(text)}</p>"]
            + html_table(tables.TARGET_HEADER, tables.target_rows(report.targets),
                         tables.TARGET_NUMERIC, {3: status_class}))


def how_to_read_html(report: Report) -> list[str]:
    return (["<h2>How to read this</h2>", "<ul>"]
            + [f"<li>{e(text)}</li>" for text in prose.how_to_read(report.results)] + ["</ul>"])


def workloads_html(report: Report) -> list[str]:
    parts = []
    for workload in tables.workload_order(report.results):
        parts += [f'<h2 id="{e(workload.name)}">{e(workload.name)}</h2>']
        parts += [f"<p>{e(p)}</p>" for p in prose.description_paragraphs(workload)]
        parts += html_table(*tables.workload_table(workload.name, report.results),
                            tables.WORKLOAD_NUMERIC, {4: lambda _: "note-cell"})
        parts += html_charts(report, workload.name)
    return parts


def fd_scaling_html(report: Report) -> list[str]:
    stage_id = tables.fd_scaling_latest(report.results)
    if stage_id is None:
        return []
    header, rows = tables.fd_scaling_rows(report.results)
    text = prose.FD_SCALING_TEXT.format(stage=report.results.impls[stage_id].label)
    return (['<h2 id="fd_scaling">fd_scaling</h2>', f"<p>{e(text)}</p>"]
            + html_table(header, rows, set(range(len(header))))
            + html_charts(report, "fd_scaling"))


def tcp_echo_html(report: Report) -> list[str]:
    results = report.results
    if not results.tcp:
        return []
    parts = ['<h2 id="tcp_echo">tcp_echo</h2>']
    parts += [f"<p>{e(p)}</p>" for p in prose.TCP_ECHO_TEXT]
    for workload in sorted(results.tcp, key=tables.tcp_workload_order):
        parts += [f'<h3 id="{e(workload)}">{e(workload)}</h3>']
        parts += html_table(tables.TCP_HEADER, [list(row) for row in tables.tcp_rows(workload, results)],
                            tables.TCP_NUMERIC)
        parts += html_charts(report, workload)
    return parts


def reproduce_html() -> list[str]:
    parts = ["<h2>How to reproduce</h2>", "<ul>"]
    parts += [f"<li><code>{e(c)}</code>: {e(w)}</li>" for c, w in prose.HOW_TO_REPRODUCE]
    return parts + ["</ul>", "<p>Raw Google Benchmark JSON is in <code>raw/</code>; "
                    "<code>summary.json</code> holds the medians, keyed by the ids in "
                    "<code>implementations.json</code>.</p>", "</body></html>", ""]


def write_html(report: Report) -> str:
    """The text of index.html."""
    parts = (header_html(report) + problems_html(report) + targets_html(report)
             + how_to_read_html(report) + workloads_html(report) + fd_scaling_html(report)
             + tcp_echo_html(report) + reproduce_html())
    return "\n".join(parts)
