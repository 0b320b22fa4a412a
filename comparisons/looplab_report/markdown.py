"""report.md: the report's document (document.py) as Markdown, charts as links into charts/."""
from __future__ import annotations

from looplab_report import document
from looplab_report.document import (BulletList, Chart, Code, FailureLog, Fields, Heading, MarkdownOnly,
                                     Note, Paragraph, Table)
from looplab_report.model import Report


def inline(parts: list) -> str:
    """The text of a paragraph or list item, code in backticks."""
    pieces = []
    for part in parts:
        if isinstance(part, Code):
            pieces.append(f"`{part.text}`")
        elif isinstance(part, MarkdownOnly):
            pieces.append(inline(part.parts))
        else:
            pieces.append(part)
    return "".join(pieces)


def table_cell(text: str) -> str:
    """Text that cannot break a Markdown table row."""
    return text.replace("|", "\\|").replace("\n", " ")


def table_row(cells: list[str]) -> str:
    return "| " + " | ".join(table_cell(cell) for cell in cells) + " |"


def heading_lines(heading: Heading) -> list[str]:
    return ["#" * heading.level + " " + heading.text]


def fields_lines(fields: Fields) -> list[str]:
    return [f"- **{label}**: {value}" for label, value in fields.rows]


def note_lines(note: Note) -> list[str]:
    return [f"> {note.text}"]


def paragraph_lines(paragraph: Paragraph) -> list[str]:
    return [inline(paragraph.parts)]


def bullet_list_lines(bullets: BulletList) -> list[str]:
    return [f"- {inline(item)}" for item in bullets.items]


def failure_log_lines(failure: FailureLog) -> list[str]:
    return ["```", failure.text, "```"]


def table_lines(table: Table) -> list[str]:
    """The numeric columns align right."""
    rule = ["---:" if index in table.numeric_columns else "---" for index in range(len(table.header))]
    return ([table_row(table.header), "|" + "|".join(rule) + "|"]
            + [table_row(row) for row in table.rows])


def chart_lines(chart: Chart) -> list[str]:
    return [f"![{chart.name}]({chart.link})"]


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
    """A block's lines, then the blank line that ends every Markdown block."""
    return BLOCK_LINES[type(block)](block) + [""]


def write_markdown(report: Report) -> str:
    """The text of report.md."""
    doc = document.build(report)
    lines = block_lines(Heading(1, doc.title))
    for block in doc.blocks:
        lines += block_lines(block)
    return "\n".join(lines)
