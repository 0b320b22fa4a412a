"""Tests for what the report writes: looplab_report.tables (the rows),
document (the blocks both pages are made of), markdown (report.md), html
(index.html) and summary (summary.json, implementations.json, header.json),
on a small made-up run.

Run from the repo root:  make test-tools
"""
import json
import re
import tempfile
import unittest
from pathlib import Path

import pythons
from looplab_report import charts, document, html, markdown, policy, prose, summary, tables, targets
from looplab_report.model import ASYNCIO_EPOLL_ID, Implementation, Report, Results, Workload

NEWEST = pythons.Interpreter("/opt/python3.13", (3, 13, 0), "CPython")
HOST = pythons.Interpreter("/usr/bin/python3", (3, 11, 2), "CPython")
HEADER = [("date", "2025-01-01 12:00 UTC"), ("machine", "a CPU, 2 CPUs, 1.0 GiB RAM"),
          ("mode", "quick (smoke test: small batches, 1 repetition); 1 repetition(s), median reported"),
          ("Python gc", "on (the twins ran with CPython's cyclic garbage collector enabled, "
                        "as real programs run)")]


def sample_results():
    """A run of stage 04 (own row and epoll), the raw epoll floor, asyncio on two
    interpreters and uvloop: two workloads, fd_scaling and tcp_echo_1."""
    results = Results()
    for impl in [
        Implementation("looplab_s04", "looplab stage 04", "looplab", "cpython_asyncio", stage=4),
        Implementation("looplab_s04_epoll", "looplab stage 04 (epoll)", "looplab",
                       ASYNCIO_EPOLL_ID, stage=4, backend="epoll"),
        Implementation("epoll_floor", "raw epoll floor (C)", "native", "cpython_asyncio"),
        Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio", interpreter=NEWEST),
        Implementation("uvloop_host_asyncio", "CPython 3.11.2 asyncio", "asyncio",
                       "cpython_asyncio", interpreter=HOST),
        Implementation("uvloop", "uvloop 0.17.0 (CPython 3.11.2)", "uvloop",
                       "uvloop_host_asyncio", interpreter=HOST),
        Implementation(ASYNCIO_EPOLL_ID, "CPython 3.13.0 asyncio (epoll)", "asyncio",
                       "cpython_asyncio", interpreter=NEWEST),
        Implementation("cpython_asyncio_protocol", "CPython 3.13.0 asyncio, Protocol server",
                       "asyncio", interpreter=NEWEST, program="echo/asyncio_protocol_server.py"),
    ]:
        results.impls[impl.id] = impl
    results.workloads["call_soon_batch"] = Workload(
        "call_soon_batch", "callback_queue", "call_soon_batch: queue N callbacks.\n\nOne op: one\n"
        "callback.", Path("asyncio/callback_queue/call_soon_batch.py"))
    figures = {"call_soon_batch": {"looplab_s04": 50.0, "cpython_asyncio": 1000.0,
                                   "uvloop_host_asyncio": 800.0, "uvloop": 400.0},
               "reader_pingpong": {"looplab_s04": 5000.0, "looplab_s04_epoll": 4000.0,
                                   "epoll_floor": 3900.0, "cpython_asyncio": 12000.0}}
    for workload, by_impl in figures.items():
        for impl_id, ns in by_impl.items():
            results.record(workload, results.impls[impl_id], ns)
    results.notes["reader_pingpong"] = {"looplab_s04": "select | the default"}
    results.fd_scaling["looplab_s04"] = {"epoll": {1: 4000.0, 1000: 4100.0},
                                         "select": {1: 4200.0, 1000: 90000.0}}
    results.tcp["tcp_echo_1"] = {
        "looplab_s04_epoll": {"ns_per_request": 14000.0, "requests_per_second": 71428.6,
                              "server_cpu_ns_per_request": 2000.0},
        "cpython_asyncio_protocol": {"ns_per_request": 17000.0, "requests_per_second": 58823.5,
                                     "server_cpu_ns_per_request": 8000.0,
                                     "server_user_cpu_ns_per_request": 5000.0}}
    results.record("tcp_echo_1", results.impls["looplab_s04_epoll"], 14000.0)
    results.record("tcp_echo_1", results.impls["cpython_asyncio_protocol"], 17000.0)
    results.python_gc = {"cpython_asyncio": {"on"}, "uvloop": {"on"}}
    results.warnings.append("No bin/libuv_pingpong: the libuv (C) row was not measured.")
    return results


def sample_report(out_dir=Path("/tmp/report")):
    results = sample_results()
    checked = [targets.check_target(spec, results) for spec in policy.load().targets
               if spec.workload == "reader_pingpong"]
    charts = {"call_soon_batch": [out_dir / "charts" / "call_soon_batch.svg"]}
    return Report(results, list(HEADER), charts, None, out_dir, checked)


def async_tree_report(out_dir=Path("/tmp/report")):
    """A run of stage 07 and asyncio on two interpreters: fanout_cached and three
    async_tree workloads (3.11 has no eager tasks), wall and CPU time."""
    results = Results()
    for impl in [Implementation("looplab_s07", "looplab stage 07", "looplab", "cpython_asyncio", stage=7),
                 Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio", interpreter=NEWEST),
                 Implementation("uvloop_host_asyncio", "CPython 3.11.2 asyncio", "asyncio",
                                "cpython_asyncio", interpreter=HOST)]:
        results.impls[impl.id] = impl
    runs = {  # {workload: {impl id: (wall, cpu)}}
        "async_tree_io_eager": {"looplab_s07": (1000.0, 300.0), "cpython_asyncio": (16000.0, 15000.0)},
        "async_tree_none": {"looplab_s07": (200.0, 200.0), "cpython_asyncio": (6000.0, 6000.0),
                            "uvloop_host_asyncio": (5000.0, 5000.0)},
        "async_tree_io": {"cpython_asyncio": (15000.0, 14000.0)},
        "fanout_cached": {"looplab_s07": (150.0, 150.0), "cpython_asyncio": (2500.0, 2500.0)},
    }
    for workload, by_impl in runs.items():
        results.workloads[workload] = Workload(
            workload, "eager_tasks", f"{workload}: what it does.\n\nMore.", Path(f"{workload}.py"))
        for impl_id, (wall, cpu) in by_impl.items():
            results.record(workload, results.impls[impl_id], wall, cpu_ns=cpu)
    charts = {"async_tree": [out_dir / "charts" / "async_tree.svg"]}
    return Report(results, list(HEADER), charts, None, out_dir, [])


class AsyncTree(unittest.TestCase):
    def setUp(self):
        self.report = async_tree_report()
        self.results = self.report.results

    def test_rows_in_the_policys_order_cpu_then_wall(self):
        header, rows = tables.async_tree_rows(self.results)
        self.assertEqual(header, ["variant", "tasks", "looplab stage 07 CPU ns/task",
                                  "CPython 3.13.0 asyncio CPU ns/task", "CPU ratio",
                                  "looplab stage 07 wall ns/task", "CPython 3.13.0 asyncio wall ns/task"])
        self.assertEqual(rows, [
            ["none", "lazy", "200", "6,000", "30.0× less CPU", "200", "6,000"],
            ["io", "lazy", "—", "14,000", "n/a", "—", "15,000"],
            ["io", "eager", "300", "15,000", "50.0× less CPU", "1,000", "16,000"]])

    def test_the_latest_stage_that_ran_them(self):
        older = Implementation("looplab_s06", "looplab stage 06", "looplab", "cpython_asyncio", stage=6)
        self.results.impls[older.id] = older
        self.results.record("async_tree_none", older, 900.0, cpu_ns=900.0)
        self.assertEqual(tables.async_tree_latest(self.results), "looplab_s07")

    def test_without_a_looplab_row_only_asyncio(self):
        for workload in list(self.results.ns_per_op):
            self.results.ns_per_op[workload].pop("looplab_s07", None)
        header, rows = tables.async_tree_rows(self.results)
        self.assertEqual(header, ["variant", "tasks", "CPython 3.13.0 asyncio CPU ns/task",
                                  "CPython 3.13.0 asyncio wall ns/task"])
        self.assertEqual(rows[0], ["none", "lazy", "6,000", "6,000"])

    def test_not_a_workload_section_of_its_own(self):
        self.assertEqual([w.name for w in tables.workload_order(self.results)], ["fanout_cached"])

    def test_section(self):
        blocks = document.async_tree_section(self.report)
        self.assertEqual(blocks[0], document.Heading(2, "async_tree", anchor="async_tree"))
        bullets = next(block for block in blocks if isinstance(block, document.BulletList))
        self.assertEqual(bullets.items, [["async_tree_none: what it does."], ["async_tree_io: what it does."],
                                         ["async_tree_io_eager: what it does."]])
        table = next(block for block in blocks if isinstance(block, document.Table))
        self.assertEqual(table.numeric_columns, {2, 3, 4, 5, 6})
        self.assertEqual(blocks[-1].link, "charts/async_tree.svg")
        self.assertEqual(document.async_tree_section(sample_report()), [])

    def test_in_the_report_after_tcp_echo(self):
        lines = markdown.write_markdown(self.report).splitlines()
        headings = [line for line in lines if line.startswith("## ")]
        self.assertEqual(headings, ["## How to read this", "## fanout_cached", "## async_tree",
                                    "## How to reproduce"])
        self.assertIn("| none | lazy | 200 | 6,000 | 30.0× less CPU | 200 | 6,000 |", lines)
        self.assertIn("![async_tree](charts/async_tree.svg)", lines)

    def test_summary(self):
        content = summary.summary(self.results)
        self.assertEqual(set(content["_async_tree"]),
                         {"async_tree_none", "async_tree_io", "async_tree_io_eager"})
        self.assertEqual(content["_async_tree"]["async_tree_none"]["uvloop_host_asyncio"],
                         {"wall_ns_per_task": 5000.0, "cpu_ns_per_task": 5000.0})
        self.assertNotIn("_async_tree", summary.summary(sample_results()))

    def test_chart(self):
        pyplot = charts.load_pyplot()
        if pyplot is None:
            self.skipTest("no matplotlib")
        with tempfile.TemporaryDirectory() as directory:
            drawn, note = charts.draw_charts(self.results, Path(directory))
            self.assertIsNone(note)
            self.assertEqual(sorted(drawn), ["async_tree", "fanout_cached"])  # no chart per tree
            self.assertIn("looplab stage 07", (Path(directory) / "async_tree.svg").read_text())


def taskgroup_tree_report(out_dir=Path("/tmp/report")):
    """A run of stages 07 and 08 and asyncio: async_tree_none lazy, eager and
    with a TaskGroup at every node, and taskgroup_fanout, with the goals of
    its stages."""
    results = Results()
    for impl in [Implementation("looplab_s07", "looplab stage 07", "looplab", "cpython_asyncio", stage=7),
                 Implementation("looplab_s08", "looplab stage 08", "looplab", "cpython_asyncio", stage=8),
                 Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio", interpreter=NEWEST)]:
        results.impls[impl.id] = impl
    runs = {  # {workload: {impl id: (wall, cpu)}}
        "async_tree_none_tg": {"looplab_s08": (180.0, 180.0), "cpython_asyncio": (7200.0, 7200.0)},
        "async_tree_none_eager": {"looplab_s08": (100.0, 100.0), "cpython_asyncio": (3000.0, 3000.0)},
        "async_tree_none": {"looplab_s08": (200.0, 200.0), "cpython_asyncio": (8000.0, 8000.0),
                            "looplab_s07": (200.0, 200.0)},  # what the goals compare the groups with
        "taskgroup_fanout": {"looplab_s08": (80.0, 80.0), "cpython_asyncio": (4800.0, 4800.0)},
    }
    for workload, by_impl in runs.items():
        group = "task_group" if "tg" in workload or "taskgroup" in workload else "eager_tasks"
        results.workloads[workload] = Workload(
            workload, group, f"{workload}: what it does.\n\nMore.", Path(f"{workload}.py"))
        for impl_id, (wall, cpu) in by_impl.items():
            results.record(workload, results.impls[impl_id], wall, cpu_ns=cpu)
    charts = {"async_tree": [out_dir / "charts" / "async_tree.svg"]}
    return Report(results, list(HEADER), charts, None, out_dir, targets.check_targets(results))


class TaskGroupTrees(unittest.TestCase):
    """Stage 08's rows of the async_tree table, and its goals."""

    def setUp(self):
        self.report = taskgroup_tree_report()
        self.results = self.report.results

    def test_rows_lazy_eager_then_taskgroup(self):
        _, rows = tables.async_tree_rows(self.results)
        self.assertEqual(rows, [
            ["none", "lazy", "200", "8,000", "40.0× less CPU", "200", "8,000"],
            ["none", "eager", "100", "3,000", "30.0× less CPU", "100", "3,000"],
            ["none", "TaskGroup", "180", "7,200", "40.0× less CPU", "180", "7,200"]])
        self.assertEqual([w.name for w in tables.workload_order(self.results)], ["taskgroup_fanout"])

    def test_a_paragraph_on_the_taskgroup_rows_only_when_they_ran(self):
        def paragraphs(report):
            return [block.parts[0] for block in document.async_tree_section(report)
                    if isinstance(block, document.Paragraph)]
        with_groups = paragraphs(self.report)
        self.assertEqual(with_groups[:-1], prose.ASYNC_TREE_TEXT)
        self.assertTrue(with_groups[-1].startswith("The TaskGroup rows are pyperformance's async_tree_*_tg"))
        self.assertEqual(paragraphs(async_tree_report()), prose.ASYNC_TREE_TEXT)  # stage 07's, as it was

    def test_the_targets_say_what_the_directions_compare(self):
        blocks = document.targets_section(self.report)
        self.assertIn("(eager against lazy tasks; TaskGroup against gather() trees): looplab's should "
                      "be on the same side of 1.", blocks[1].parts[0])
        rows = {row[0]: row for row in blocks[2].rows}
        self.assertEqual(rows["async_tree_none_tg CPU time per op: looplab stage 08 / looplab stage 07 "
                              "on async_tree_none"][2:], ["<\u00a01×, as CPython 3.13.0 asyncio: 0.90×", "met"])
        self.assertEqual(rows["taskgroup_fanout: CPython 3.13.0 asyncio / looplab stage 08"][1:],
                         ["60.00×", "≥\u00a060×", "met"])
        stage_07 = prose.targets_text(4, 7, ["eager"] * 4)
        self.assertTrue(stage_07.endswith(" (eager against lazy tasks): looplab's should be on the "
                                          "same side of 1."))
        no_directions = prose.TARGETS_TEXT.format(stages="stages 04 to 06", first="04")
        self.assertEqual(prose.targets_text(4, 6), no_directions)

    def test_in_the_report(self):
        lines = markdown.write_markdown(self.report).splitlines()
        self.assertIn("| none | TaskGroup | 180 | 7,200 | 40.0× less CPU | 180 | 7,200 |", lines)
        self.assertIn("- async_tree_none_tg: what it does.", lines)
        content = summary.summary(self.results)
        self.assertEqual(content["_async_tree"]["async_tree_none_tg"]["looplab_s08"],
                         {"wall_ns_per_task": 180.0, "cpu_ns_per_task": 180.0})

    def test_chart(self):
        pyplot = charts.load_pyplot()
        if pyplot is None:
            self.skipTest("no matplotlib")
        with tempfile.TemporaryDirectory() as directory:
            drawn, note = charts.draw_charts(self.results, Path(directory))
            self.assertIsNone(note)
            self.assertEqual(sorted(drawn), ["async_tree", "taskgroup_fanout"])
            self.assertIn("none, TaskGroup", (Path(directory) / "async_tree.svg").read_text())


class Tables(unittest.TestCase):
    def setUp(self):
        self.results = sample_results()

    def test_workload_rows_and_their_baselines(self):
        rows = tables.table_rows("call_soon_batch", self.results)
        self.assertEqual(rows, [
            ("looplab stage 04", "50.0", "20.0× faster", "CPython 3.13.0 asyncio", ""),
            ("CPython 3.13.0 asyncio", "1,000", "1× (baseline)", "", ""),
            ("CPython 3.11.2 asyncio", "800", "1.2× faster", "CPython 3.13.0 asyncio", ""),
            ("uvloop 0.17.0 (CPython 3.11.2)", "400", "2.0× faster",
             "CPython 3.11.2 asyncio (same interpreter)", "")])

    def test_the_epoll_baseline_falls_back_to_its_own_when_it_did_not_run(self):
        rows = tables.table_rows("reader_pingpong", self.results)
        epoll = next(row for row in rows if row[0] == "looplab stage 04 (epoll)")
        self.assertEqual(epoll[2:4], ("3.0× faster", "CPython 3.13.0 asyncio"))

    def test_a_baseline_that_did_not_run(self):
        del self.results.ns_per_op["call_soon_batch"]["uvloop_host_asyncio"]
        uvloop = tables.table_rows("call_soon_batch", self.results)[-1]
        self.assertEqual(uvloop[2:4], ("n/a", "CPython 3.11.2 asyncio did not run"))

    def test_the_note_column_only_when_a_row_has_a_note(self):
        header, rows = tables.workload_table("call_soon_batch", self.results)
        self.assertEqual(header, ["implementation", "ns/op", "ratio", "compared with"])
        self.assertEqual({len(row) for row in rows}, {4})
        header, rows = tables.workload_table("reader_pingpong", self.results)
        self.assertEqual(header[-1], "note")
        self.assertEqual(rows[0][-1], "select | the default")

    def test_tcp_rows(self):
        rows = tables.tcp_rows("tcp_echo_1", self.results)
        self.assertEqual(rows, [
            ("looplab stage 04 (epoll)", "14,000", "71,429", "2,000", "n/a", "4.0× less CPU",
             "CPython 3.13.0 asyncio, Protocol server"),
            ("CPython 3.13.0 asyncio, Protocol server", "17,000", "58,824", "8,000", "5,000",
             "1× (baseline)", "")])

    def test_fd_scaling_rows(self):
        header, rows = tables.fd_scaling_rows(self.results)
        self.assertEqual(header, ["idle descriptors", "select", "epoll"])  # the policy's order
        self.assertEqual(rows, [["1", "4,200", "4,000"], ["1,000", "90,000", "4,100"]])

    def test_workload_order(self):
        self.assertEqual([w.name for w in tables.workload_order(self.results)],
                         ["call_soon_batch", "reader_pingpong"])  # twins first, tcp_echo apart
        self.assertEqual(sorted(["tcp_echo_coro_10", "tcp_echo_100", "tcp_echo_coro_1", "tcp_echo_1",
                                 "tcp_echo_10"], key=tables.tcp_workload_order),
                         ["tcp_echo_1", "tcp_echo_10", "tcp_echo_100", "tcp_echo_coro_1",
                          "tcp_echo_coro_10"])


class Document(unittest.TestCase):
    def test_sections_in_order(self):
        doc = document.build(sample_report())
        self.assertEqual(doc.title, "looplab benchmark report")
        headings = [(block.level, block.text) for block in doc.blocks if isinstance(block, document.Heading)]
        self.assertEqual(headings, [(2, "Notes"), (2, "Targets"), (2, "How to read this"),
                                    (2, "call_soon_batch"), (2, "reader_pingpong"), (2, "fd_scaling"),
                                    (2, "tcp_echo"), (3, "tcp_echo_1"), (2, "How to reproduce")])

    def test_charts_link_into_the_report_directory(self):
        charts = [block for block in document.build(sample_report()).blocks
                  if isinstance(block, document.Chart)]
        self.assertEqual([(chart.name, chart.link) for chart in charts],
                         [("call_soon_batch", "charts/call_soon_batch.svg")])

    def test_markdown_only_words(self):
        parts = ["in ", document.Code("raw/"), document.MarkdownOnly([" (see ", document.Code("x"), ")"]), "."]
        self.assertEqual(markdown.inline(parts), "in `raw/` (see `x`).")
        self.assertEqual(html.inline(parts), "in <code>raw/</code>.")


class Markdown(unittest.TestCase):
    def test_table(self):
        table = document.Table(["name", "ns", "what"], [["a|b", "1,000", "two\nlines"]], {1})
        lines = markdown.block_lines(table)
        self.assertEqual(lines, ["| name | ns | what |", "|---|---:|---|",
                                 "| a\\|b | 1,000 | two lines |", ""])

    def test_report(self):
        text = markdown.write_markdown(sample_report())
        lines = text.splitlines()
        headings = [line for line in lines if line.startswith("#")]
        self.assertEqual(headings, ["# looplab benchmark report", "## Notes", "## Targets",
                                    "## How to read this", "## call_soon_batch", "## reader_pingpong",
                                    "## fd_scaling", "## tcp_echo", "### tcp_echo_1",
                                    "## How to reproduce"])
        self.assertIn("- **date**: 2025-01-01 12:00 UTC", lines)
        self.assertIn("- No bin/libuv_pingpong: the libuv (C) row was not measured.", lines)
        self.assertIn("The goals of stage 04, checked on this run's figures (ratios of medians, from "
                      "the latest looplab stage from 04 on that has the rows). A ≤ or < goal is a "
                      "ratio where lower is better; a ≥ goal is how many times more asyncio spends "
                      "than looplab.", lines)
        self.assertIn("| reader_pingpong: looplab stage 04 (epoll) / raw epoll floor (C) | 1.03× "
                      "| ≤\u00a01.1× | met |", lines)
        self.assertIn("| implementation | ns/op | ratio | compared with |", lines)
        self.assertIn("| implementation | ns/op | ratio | compared with | note |", lines)
        self.assertIn("| looplab stage 04 | 5,000 | 2.4× faster | CPython 3.13.0 asyncio "
                      "| select \\| the default |", lines)
        self.assertIn("call_soon_batch: queue N callbacks.", lines)
        self.assertIn("One op: one callback.", lines)
        self.assertIn("![call_soon_batch](charts/call_soon_batch.svg)", lines)
        self.assertIn("| idle descriptors | select | epoll |", lines)
        self.assertIn("|---:|---:|---:|", lines)
        self.assertTrue(text.endswith("`implementations.json`.\n"))

    def test_no_targets_no_section(self):
        report = sample_report()
        report.targets = []
        self.assertNotIn("## Targets", markdown.write_markdown(report))

    def test_failures(self):
        report = sample_report()
        report.results.failures.append("c++ bench_s04: exit status 1\n  command: bench_s04")
        lines = markdown.write_markdown(report).splitlines()
        start = lines.index("## Failed runs")
        self.assertEqual(lines[start + 2:start + 6],
                         ["```", "c++ bench_s04: exit status 1", "  command: bench_s04", "```"])


class Html(unittest.TestCase):
    def test_page(self):
        with tempfile.TemporaryDirectory() as directory:
            out = Path(directory)
            (out / "charts").mkdir()
            (out / "charts" / "call_soon_batch.svg").write_text("<svg/>")
            page = html.write_html(sample_report(out))
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertIn("<dt>date</dt><dd>2025-01-01 12:00 UTC</dd>", page)
        self.assertIn('<h2 id="targets">Targets</h2>', page)
        self.assertIn('<td class="met">met</td>', page)
        self.assertIn('<td class="note-cell">select | the default</td>', page)
        self.assertIn('<td class="num">5,000</td>', page)
        self.assertIn('src="data:image/svg+xml;base64,PHN2Zy8+"', page)
        self.assertIn("<dd>on (the twins ran with CPython&#x27;s cyclic", page)

    def test_status_classes(self):
        self.assertEqual([html.status_class(s) for s in ("met", "not met", "not measured (x)")],
                         ["met", "not-met", "unmeasured"])


class Summaries(unittest.TestCase):
    def test_summary_shape(self):
        report = sample_report()
        content = summary.summary(report.results, report.targets)
        self.assertEqual(set(content), {"call_soon_batch", "reader_pingpong", "tcp_echo_1",
                                        "_targets", "_fd_scaling", "_tcp_echo"})
        self.assertEqual(content["call_soon_batch"]["looplab_s04"], 50.0)
        self.assertEqual(content["_fd_scaling"], {"looplab_s04": {
            "epoll": {"1": 4000.0, "1000": 4100.0}, "select": {"1": 4200.0, "1000": 90000.0}}})
        self.assertEqual(content["_tcp_echo"]["tcp_echo_1"]["looplab_s04_epoll"]["compared_with"],
                         "cpython_asyncio_protocol")
        self.assertIsNone(content["_tcp_echo"]["tcp_echo_1"]["cpython_asyncio_protocol"]["compared_with"])
        self.assertEqual([target["id"] for target in content["_targets"]],
                         ["reader_pingpong:epoll/floor", "reader_pingpong:epoll/libuv",
                          "reader_pingpong:io_uring/epoll"])

    def test_implementations_shape(self):
        described = summary.implementations(sample_results())
        self.assertEqual(list(described)[:2], ["looplab_s04", "looplab_s04_epoll"])
        keys = {"label", "kind", "compared_with", "stage", "backend", "program", "interpreter",
                "python_version"}
        self.assertEqual(set(described["looplab_s04_epoll"]), keys)
        self.assertEqual(set(described["looplab_s04"]), keys | {"notes"})
        self.assertEqual(described["looplab_s04"]["notes"], {"reader_pingpong": "select | the default"})
        self.assertEqual(described["uvloop"]["gc"], "on")
        self.assertEqual(described["uvloop"]["interpreter"], "/usr/bin/python3")
        self.assertEqual(described["uvloop"]["python_version"], "3.11.2")

    def test_header_is_report_md_header(self):
        report = sample_report()
        from_markdown = dict(re.findall(r"^- \*\*(.+?)\*\*: (.*)$", markdown.write_markdown(report),
                                        re.M)[:len(HEADER)])
        self.assertEqual(summary.header(report.header), from_markdown)
        self.assertEqual(list(summary.header(report.header)), [label for label, _ in HEADER])

    def test_files(self):
        report = sample_report()
        with tempfile.TemporaryDirectory() as directory:
            out = Path(directory)
            summary.write_summaries(report.results, out, report.targets, report.header)
            self.assertEqual(sorted(path.name for path in out.iterdir()),
                             ["header.json", "implementations.json", "summary.json"])
            self.assertEqual(json.loads((out / "header.json").read_text()), dict(HEADER))
            self.assertIn("_targets", json.loads((out / "summary.json").read_text()))


if __name__ == "__main__":
    unittest.main()
