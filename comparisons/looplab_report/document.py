"""The report as a document: a title and a list of blocks (headings, paragraphs,
tables, charts, ...), built once from a Report, with no markup in it.

report.md and index.html say the same things in the same order; markdown.py
and html.py each turn these blocks into their own markup."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from looplab_report import policy, prose, tables, targets
from looplab_report.model import Report


# Inside a paragraph or a list item: plain strings, and these.

@dataclass
class Code:
    """A command, file name or path, shown as code."""

    text: str


@dataclass
class MarkdownOnly:
    """Words that report.md has and index.html leaves out."""

    parts: list  # [str or Code]


Inline = Union[str, Code, MarkdownOnly]


# The blocks, top to bottom.

@dataclass
class Heading:
    level: int                    # 2 for a section, 3 for a subsection
    text: str
    anchor: Optional[str] = None  # the id index.html gives it, for links into the page


@dataclass
class Fields:
    """(label, value) rows: the report's header (date, machine, mode, ...)."""

    rows: list[tuple[str, str]]


@dataclass
class Note:
    """A remark set apart from the text around it."""

    text: str


@dataclass
class Paragraph:
    parts: list[Inline]


@dataclass
class BulletList:
    items: list[list[Inline]]


@dataclass
class FailureLog:
    """What a failed run printed, line breaks and all."""

    text: str


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]
    numeric_columns: set[int] = field(default_factory=set)  # aligned right
    status_column: Optional[int] = None  # a target's "met" / "not met" / "not measured"
    note_column: Optional[int] = None    # what a benchmark says about itself


@dataclass
class Chart:
    """An SVG chart of charts/."""

    name: str   # the file's name without .svg
    file: Path  # where it is, to read it
    link: str   # its path relative to the report's directory


Block = Union[Heading, Fields, Note, Paragraph, BulletList, FailureLog, Table, Chart]


@dataclass
class Document:
    title: str
    blocks: list[Block]


def charts(report: Report, key: str) -> list[Block]:
    """The charts drawn for a workload (or for "fd_scaling", "async_tree")."""
    return [Chart(chart.stem, chart, chart.relative_to(report.out_dir).as_posix())
            for chart in report.charts.get(key, [])]


def header_section(report: Report) -> list[Block]:
    return [Fields(report.header), Note(prose.RATIO_NOTE)]


def problems_section(report: Report) -> list[Block]:
    """The warnings and the failed runs, if there are any."""
    blocks = []
    notes = report.results.warnings + ([report.chart_note] if report.chart_note else [])
    if notes:
        blocks += [Heading(2, "Notes"), BulletList([[note] for note in notes])]
    if report.results.failures:
        blocks += [Heading(2, "Failed runs")]
        blocks += [FailureLog(failure) for failure in report.results.failures]
    return blocks


def targets_section(report: Report) -> list[Block]:
    if not report.targets:
        return []
    tree = policy.load().async_tree
    direction_flavours = [(tree.workload_parts(target.spec.workload) or ("", ""))[1]
                          for target in report.targets if target.spec.reference is not None]
    text = prose.targets_text(*targets.stage_span(target.spec for target in report.targets),
                              direction_flavours)
    table = Table(tables.TARGET_HEADER, tables.target_rows(report.targets), tables.TARGET_NUMERIC,
                  status_column=tables.TARGET_HEADER.index("status"))
    return [Heading(2, "Targets", anchor="targets"), Paragraph([text]), table]


def how_to_read_section(report: Report) -> list[Block]:
    return [Heading(2, "How to read this"),
            BulletList([[text] for text in prose.how_to_read(report.results)])]


def workloads_section(report: Report) -> list[Block]:
    """A section per workload: what it does, its table, its charts."""
    blocks = []
    for workload in tables.workload_order(report.results):
        blocks += [Heading(2, workload.name, anchor=workload.name)]
        blocks += [Paragraph([text]) for text in prose.description_paragraphs(workload)]
        header, rows = tables.workload_table(workload.name, report.results)
        blocks += [Table(header, rows, tables.WORKLOAD_NUMERIC,
                         note_column=tables.WORKLOAD_HEADER.index("note"))]
        variants = tables.variant_rows(workload.name, report.results)
        if variants:
            blocks += [Paragraph(["Also measured once per configuration (",
                                  Code(f"{workload.name}/<configuration>"), "), in ns per operation:"]),
                       Table(tables.VARIANT_HEADER, variants, tables.VARIANT_NUMERIC,
                             note_column=tables.VARIANT_HEADER.index("note"))]
        blocks += charts(report, workload.name)
    return blocks


def fd_scaling_section(report: Report) -> list[Block]:
    stage_id = tables.fd_scaling_latest(report.results)
    if stage_id is None:
        return []
    header, rows = tables.fd_scaling_rows(report.results)
    text = prose.FD_SCALING_TEXT.format(stage=report.results.impls[stage_id].label)
    return ([Heading(2, "fd_scaling", anchor="fd_scaling"), Paragraph([text]),
             Table(header, rows, set(range(len(header))))]
            + charts(report, "fd_scaling"))


def tcp_echo_section(report: Report) -> list[Block]:
    """What tcp_echo measures, then a subsection per connection count."""
    results = report.results
    if not results.tcp:
        return []
    blocks = [Heading(2, "tcp_echo", anchor="tcp_echo")]
    blocks += [Paragraph([text]) for text in prose.TCP_ECHO_TEXT]
    for workload in sorted(results.tcp, key=tables.tcp_workload_order):
        rows = [list(row) for row in tables.tcp_rows(workload, results)]
        blocks += [Heading(3, workload, anchor=workload),
                   Table(tables.TCP_HEADER, rows, tables.TCP_NUMERIC)]
        blocks += charts(report, workload)
    return blocks


def async_tree_section(report: Report) -> list[Block]:
    """What async_tree measures, its workloads, one table and its chart."""
    results = report.results
    workloads = tables.async_tree_workloads(results)
    if not workloads:
        return []
    blocks = [Heading(2, "async_tree", anchor="async_tree")]
    blocks += [Paragraph([text]) for text in prose.ASYNC_TREE_TEXT]
    flavours = dict.fromkeys(flavour for _, _, flavour in workloads)
    blocks += [Paragraph([prose.ASYNC_TREE_FLAVOUR_TEXT[flavour]])
               for flavour in flavours if flavour in prose.ASYNC_TREE_FLAVOUR_TEXT]
    blocks += [BulletList([[line] for line in prose.first_lines(
        results.workloads[workload] for workload, _, _ in workloads)])]
    header, rows = tables.async_tree_rows(results)
    blocks += [Table(header, rows, set(range(2, len(header))))]
    return blocks + charts(report, "async_tree")


def reproduce_section() -> list[Block]:
    commands = BulletList([[Code(command), f": {what}"] for command, what in prose.HOW_TO_REPRODUCE])
    raw_files = Paragraph([
        "Raw Google Benchmark JSON is in ", Code("raw/"),
        MarkdownOnly([" (compare two files with Google Benchmark's ",
                      Code("tools/compare.py benchmarks A.json B.json"), ")"]),
        "; ", Code("summary.json"), " holds the medians, keyed by the ids in ",
        Code("implementations.json"), "."])
    return [Heading(2, "How to reproduce"), commands, raw_files]


def build(report: Report) -> Document:
    """The whole report, section by section."""
    blocks = (header_section(report) + problems_section(report) + targets_section(report)
              + how_to_read_section(report) + workloads_section(report)
              + fd_scaling_section(report) + tcp_echo_section(report) + async_tree_section(report)
              + reproduce_section())
    return Document(prose.TITLE, blocks)
