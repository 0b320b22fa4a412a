"""index.html: the report's document (document.py) as one self-contained page, charts inlined."""
from __future__ import annotations

import base64
from html import escape as e

from looplab_report import document
from looplab_report.document import (BulletList, Chart, Code, FailureLog, Fields, Heading, MarkdownOnly,
                                     Note, Paragraph, Table)
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


def inline(parts: list) -> str:
    """The HTML of a paragraph or list item; what only report.md says is left out."""
    pieces = []
    for part in parts:
        if isinstance(part, Code):
            pieces.append(f"<code>{e(part.text)}</code>")
        elif isinstance(part, MarkdownOnly):
            continue
        else:
            pieces.append(e(part))
    return "".join(pieces)


def status_class(status: str) -> str:
    """The CSS class of a target's status cell."""
    return {"met": "met", "not met": "not-met"}.get(status, "unmeasured")


def cell_classes(table: Table, index: int, text: str) -> list[str]:
    """The CSS classes of the cell `text` in column `index` of `table`."""
    names = []
    if index in table.numeric_columns:
        names.append("num")
    if index == table.status_column:
        names.append(status_class(text))
    if index == table.note_column:
        names.append("note-cell")
    return names


def table_cell(table: Table, index: int, text: str) -> str:
    names = cell_classes(table, index, text)
    attribute = f' class="{" ".join(names)}"' if names else ""
    return f"<td{attribute}>{e(text)}</td>"


def heading_lines(heading: Heading) -> list[str]:
    tag = f"h{heading.level}"
    attribute = f' id="{e(heading.anchor)}"' if heading.anchor else ""
    return [f"<{tag}{attribute}>{e(heading.text)}</{tag}>"]


def fields_lines(fields: Fields) -> list[str]:
    return (['<dl class="header">']
            + [f"<dt>{e(label)}</dt><dd>{e(value)}</dd>" for label, value in fields.rows]
            + ["</dl>"])


def note_lines(note: Note) -> list[str]:
    return [f'<p class="note">{e(note.text)}</p>']


def paragraph_lines(paragraph: Paragraph) -> list[str]:
    return [f"<p>{inline(paragraph.parts)}</p>"]


def bullet_list_lines(bullets: BulletList) -> list[str]:
    return ["<ul>"] + [f"<li>{inline(item)}</li>" for item in bullets.items] + ["</ul>"]


def failure_log_lines(failure: FailureLog) -> list[str]:
    return [f'<div class="failure">{e(failure.text)}</div>']


def table_lines(table: Table) -> list[str]:
    """The numeric columns align right; status and note cells get their own look."""
    lines = ["<table><tr>" + "".join(f"<th>{e(cell)}</th>" for cell in table.header) + "</tr>"]
    for row in table.rows:
        cells = [table_cell(table, index, text) for index, text in enumerate(row)]
        lines.append("<tr>" + "".join(cells) + "</tr>")
    return lines + ["</table>"]


def chart_lines(chart: Chart) -> list[str]:
    """The chart's SVG inlined, so that the page needs no other file."""
    data = base64.b64encode(chart.file.read_bytes()).decode("ascii")
    return [f'<img class="chart" alt="{e(chart.name)}" src="data:image/svg+xml;base64,{data}">']


BLOCK_LINES = {
    Heading: heading_lines,
    Fields: fields_lines,
    Note: note_lines,
    Paragraph: paragraph_lines,
    BulletList: bullet_list_lines,
    FailureLog: failure_log_lines,
    Table: table_lines,
    Chart: chart_lines,
}


def block_lines(block: document.Block) -> list[str]:
    return BLOCK_LINES[type(block)](block)


def page_start(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{e(title)}</title>", f"<style>{CSS}</style></head><body>"]


def write_html(report: Report) -> str:
    """The text of index.html."""
    doc = document.build(report)
    lines = page_start(doc.title) + block_lines(Heading(1, doc.title))
    for block in doc.blocks:
        lines += block_lines(block)
    return "\n".join(lines + ["</body></html>", ""])
