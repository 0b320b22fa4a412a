"""Tests for looplab_report.plan, echo_plan and record: the runs planned from a
made-up build directory, and a run's figures into the Results (no program runs).

Run from the repo root:  make test-tools
"""
import tempfile
import unittest
from pathlib import Path

import pythons
from looplab_report import discover, echo_plan, plan, record
from looplab_report.gbench import Outcome
from looplab_report.model import ASYNCIO_EPOLL_ID, Implementation, Results, Workload

NEWEST = pythons.Interpreter("/opt/python3.13", (3, 13, 0), "CPython")
HOST = pythons.Interpreter("/usr/bin/python3", (3, 11, 2), "CPython")


def python_impls():
    return [Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio", interpreter=NEWEST),
            Implementation("uvloop_host_asyncio", "CPython 3.11.2 asyncio", "asyncio",
                           "cpython_asyncio", interpreter=HOST),
            Implementation("uvloop", "uvloop 0.17.0 (CPython 3.11.2)", "uvloop",
                           "uvloop_host_asyncio", interpreter=HOST)]


def build_dir(directory, names):
    """<directory>/bin with an executable (empty) file per name."""
    (Path(directory) / "bin").mkdir()
    for name in names:
        path = Path(directory) / "bin" / name
        path.write_text("")
        path.chmod(0o755)
    return Path(directory)


def job_for(impl, title="c++ bench_s04"):
    return plan.Job(impl, title, ["bench"], Path("/nonexistent.json"), 1)


class Plan(unittest.TestCase):
    def test_jobs_in_order(self):
        with tempfile.TemporaryDirectory() as directory:
            build = build_dir(directory, ["bench_s03", "bench_s04", "bench_sXX", "demo_s04"])
            (build / "bin" / "bench_s05").write_text("")  # not executable: not a benchmark
            cpp = discover.find_cpp_benchmarks(build)
            self.assertEqual([stage for stage, _ in cpp], [3, 4])
            twins = [Workload("call_soon_batch", "callback_queue", "", Path("cb.py")),
                     Workload("reader_pingpong", "io", "", Path("rp.py"))]
            results = Results()
            jobs = plan.plan_jobs(cpp, twins, python_impls(), Path("/raw"), True, 1, results)
        self.assertEqual([job.title for job in jobs], [
            "c++ bench_s03", "c++ bench_s04",
            "cpython 3.13 asyncio call_soon_batch", "cpython 3.11 asyncio call_soon_batch",
            "cpython 3.11 uvloop call_soon_batch",
            "cpython 3.13 asyncio reader_pingpong", "cpython 3.13 asyncio reader_pingpong (epoll)",
            "cpython 3.11 asyncio reader_pingpong", "cpython 3.11 uvloop reader_pingpong"])
        self.assertIn("--benchmark_min_time=0.01", jobs[0].command)
        self.assertIn("--benchmark_min_warmup_time=0.01", jobs[0].command)
        self.assertEqual(jobs[6].command[-3:], ["--selector", "default", "--quick"])
        self.assertEqual(jobs[6].raw, Path("/raw/cpython_asyncio_epoll--reader_pingpong.json"))
        self.assertIn(ASYNCIO_EPOLL_ID, results.impls)

    def test_each_benchmark_family_runs_in_a_process_of_its_own(self):
        asked = []

        def families(binary, name_filter):
            asked.append((binary.name, name_filter))
            return ["call_soon_batch", "fd_scaling"] if binary.name == "bench_s04" else None

        results = Results()
        jobs = plan.plan_cpp_jobs([(3, Path("bench_s03")), (4, Path("bench_s04"))], Path("/raw"),
                                  False, 3, results, {4: "^(fd_scaling)(/|$)"}, families)
        self.assertEqual(asked, [("bench_s03", None), ("bench_s04", "^(fd_scaling)(/|$)")])
        # A binary that cannot list its benchmarks runs them all at once.
        self.assertEqual([job.title for job in jobs], [
            "c++ bench_s03", "c++ bench_s04 call_soon_batch", "c++ bench_s04 fd_scaling"])
        self.assertEqual(jobs[0].raw, Path("/raw/looplab_s03.json"))
        self.assertEqual(jobs[2].raw, Path("/raw/looplab_s04--fd_scaling.json"))
        self.assertIn("--benchmark_filter=^(fd_scaling)(/|$)", jobs[2].command)
        self.assertIn("--benchmark_out=/raw/looplab_s04--fd_scaling.json", jobs[2].command)
        self.assertIn("--benchmark_repetitions=3", jobs[1].command)
        self.assertIsNone(jobs[1].env)

    def test_quick_mode_tells_the_benchmarks_so(self):
        # The twins' --quick shrinks the async_tree trees; the C++ side reads
        # LOOPLAB_BENCH_QUICK to build the same tree.
        jobs = plan.plan_cpp_jobs([(7, Path("bench_s07"))], Path("/raw"), True, 1, Results(),
                                  None, lambda binary, name_filter: ["async_tree_none"])
        self.assertEqual(jobs[0].env, {"LOOPLAB_BENCH_QUICK": "1"})
        self.assertIn("LOOPLAB_BENCH_QUICK=1 bench_s07", jobs[0].command_text())

    def test_a_program_lists_its_benchmark_families(self):
        with tempfile.TemporaryDirectory() as directory:
            lister = Path(directory) / "bench_s01"
            lister.write_text("#!/bin/sh\nprintf 'fd_scaling/epoll/1\\nfd_scaling/select/1\\n"
                              "timers\\ncall_soon_chain/epoll\\n'\n")
            lister.chmod(0o755)
            self.assertEqual(plan.list_families(lister),
                             ["fd_scaling", "timers", "call_soon_chain"])
            lister.write_text("#!/bin/sh\nexit 1\n")
            self.assertIsNone(plan.list_families(lister))

    def test_native_programs_of_one_implementation_share_its_row(self):
        with tempfile.TemporaryDirectory() as directory:
            build = build_dir(directory, ["epoll_pingpong", "libuv_pingpong", "libuv_threadsafe",
                                          "libuv_executor"])
            results = Results()
            native = discover.native_implementations(build, results)
            jobs = plan.plan_native_jobs(native, Path("/raw"), True, 1, results)
        self.assertEqual([job.title for job in jobs], [
            "native epoll_pingpong", "native libuv_pingpong", "native libuv_threadsafe",
            "native libuv_executor"])
        # One raw file per program, one implementation object per id.
        self.assertEqual([job.raw.name for job in jobs],
                         ["epoll_pingpong.json", "libuv_pingpong.json", "libuv_threadsafe.json",
                          "libuv_executor.json"])
        self.assertIs(jobs[1].impl, jobs[2].impl)
        self.assertIs(jobs[1].impl, jobs[3].impl)
        self.assertIs(results.impls["libuv"], jobs[1].impl)
        self.assertEqual(results.warnings, [])

    def test_a_missing_native_program_is_a_note(self):
        with tempfile.TemporaryDirectory() as directory:
            build = build_dir(directory, ["libuv_pingpong"])
            results = Results()
            native = discover.native_implementations(build, results)
        self.assertEqual([binary.name for _, binary in native], ["libuv_pingpong"])
        self.assertEqual(len(results.warnings), 3)
        self.assertIn("libuv_threadsafe were not measured", results.warnings[1])
        self.assertIn("libuv_executor were not measured", results.warnings[2])

    def test_no_epoll_baseline_before_the_pollers(self):
        results = Results()
        jobs = plan.plan_jobs([(3, Path("bench_s03"))], [Workload("rp", "io", "", Path("rp.py"))],
                              python_impls()[:1], Path("/raw"), False, 5, results)
        self.assertEqual([job.title for job in jobs], ["c++ bench_s03", "cpython 3.13 asyncio rp"])
        self.assertNotIn(ASYNCIO_EPOLL_ID, results.impls)
        self.assertIn("--benchmark_repetitions=5", jobs[0].command)
        self.assertIn("--benchmark_min_warmup_time=0.1", jobs[0].command)

    def test_echo_servers(self):
        with tempfile.TemporaryDirectory() as directory:
            build = build_dir(directory, ["tcp_echo_server_s04", "tcp_echo_server_s06",
                                          "tcp_echo_coro_server_s06", "echo_client"])
            results = Results()
            jobs = echo_plan.plan_tcp_echo(build, python_impls(), Path("/raw"), False, 3, results)
        titles = [job.title for job in jobs]
        self.assertEqual(titles[:3], ["tcp_echo tcp_echo_server_s06 epoll",
                                      "tcp_echo tcp_echo_server_s06 io_uring",
                                      "tcp_echo tcp_echo_coro_server_s06 epoll"])
        self.assertEqual(len(jobs), 3 + 2 * 3)  # no libuv_echo_server; two Python servers, three loops
        coro = jobs[2]
        self.assertEqual(coro.impl.id, "looplab_s06_coro")
        self.assertEqual(coro.impl.baseline, "cpython_asyncio_streams")
        self.assertEqual(coro.env, {"LOOPLAB_SELECTOR": "epoll"})
        self.assertIn("--prefix", coro.command)
        self.assertEqual(coro.command[coro.command.index("--connections") + 1], "1,10")
        self.assertTrue(any("libuv_echo_server" in warning for warning in results.warnings))
        baselines = {job.impl.id: job.impl.baseline for job in jobs}
        self.assertEqual(baselines["cpython_asyncio_protocol"], None)
        self.assertEqual(baselines["cpython_asyncio_streams"], "cpython_asyncio_protocol")
        self.assertEqual(baselines["uvloop_streams"], "uvloop_host_asyncio_streams")

    def test_no_client_no_tcp_echo(self):
        with tempfile.TemporaryDirectory() as directory:
            build = build_dir(directory, ["tcp_echo_server_s04"])
            results = Results()
            self.assertEqual(echo_plan.plan_tcp_echo(build, python_impls(), Path("/raw"),
                                                     False, 1, results), [])
        self.assertIn("echo_client", results.warnings[0])

    def test_a_twin_that_needs_a_newer_python_skips_the_older_interpreter(self):
        twins = [Workload("fan", "eager_tasks", "", Path("fan.py")),
                 Workload("fan_eager", "eager_tasks", "", Path("fan_eager.py"), (3, 12)),
                 Workload("tree_eager", "eager_tasks", "", Path("tree_eager.py"), (3, 12))]
        results = Results()
        jobs = plan.plan_jobs([], twins, python_impls(), Path("/raw"), False, 5, results)
        self.assertEqual([job.title for job in jobs], [
            "cpython 3.13 asyncio fan", "cpython 3.11 asyncio fan", "cpython 3.11 uvloop fan",
            "cpython 3.13 asyncio fan_eager", "cpython 3.13 asyncio tree_eager"])
        self.assertEqual(results.warnings, [
            "CPython 3.11.2 asyncio did not run fan_eager, tree_eager: they need Python 3.12 or later "
            "(REQUIRES_PYTHON in the twin).",
            "uvloop 0.17.0 (CPython 3.11.2) did not run fan_eager, tree_eager: they need Python 3.12 "
            "or later (REQUIRES_PYTHON in the twin)."])
        self.assertIn("fan_eager", results.workloads)  # known, with its description

    def test_find_twins_reads_requires_python(self):
        with tempfile.TemporaryDirectory() as directory:
            group = Path(directory) / "eager_tasks"
            group.mkdir()
            (group / "fan.py").write_text('"""fan: lazy."""\n')
            (group / "fan_eager.py").write_text('"""fan_eager: eager."""\nREQUIRES_PYTHON = "3.12"\n')
            (group / "_shared.py").write_text('"""Shared code, not a twin."""\n')
            twins = discover.find_twins(Path(directory))
        self.assertEqual([(twin.name, twin.requires_python) for twin in twins],
                         [("fan", None), ("fan_eager", (3, 12))])
        self.assertEqual(twins[1].description, "fan_eager: eager.")


class RecordBenchmarks(unittest.TestCase):
    def setUp(self):
        self.results = Results()
        self.stage = Implementation("looplab_s04", "looplab stage 04", "looplab",
                                    "cpython_asyncio", stage=4)
        self.results.impls[self.stage.id] = self.stage

    def record(self, metrics, labels=None, errors=None):
        outcome = Outcome({key: {"real_time": ns} for key, ns in metrics.items()},
                          labels or {}, errors or {}, {})
        return record.record_benchmarks(job_for(self.stage), outcome, self.results)

    def test_rows_backends_and_fd_scaling(self):
        problems = self.record({"call_soon_batch": 50.0, "reader_pingpong/epoll": 4000.0,
                                "fd_scaling/select/1000": 90000.0, "fd_scaling/epoll/idle:10": 4100.0,
                                "timers/8": 10.0, "timers/64": 30.0, "timers/512": 20.0},
                               labels={"call_soon_batch": "no poll", "reader_pingpong/epoll": "epoll",
                                       "timers/8": "heap"})
        self.assertEqual(problems, [])
        self.assertEqual(self.results.ns_per_op["call_soon_batch"], {"looplab_s04": 50.0})
        self.assertEqual(self.results.ns_per_op["reader_pingpong"], {"looplab_s04_epoll": 4000.0})
        self.assertEqual(self.results.ns_per_op["timers"], {"looplab_s04": 20.0})  # the median
        self.assertEqual(self.results.fd_scaling["looplab_s04"],
                         {"select": {1000: 90000.0}, "epoll": {10: 4100.0}})
        # A label that only names the backend is not a note; other labels are.
        self.assertEqual(self.results.notes, {"call_soon_batch": {"looplab_s04": "no poll"},
                                              "timers": {"looplab_s04": "heap"}})
        self.assertEqual(self.results.impls["looplab_s04_epoll"].label, "looplab stage 04 (epoll)")

    def test_a_backend_that_cannot_run_here_is_a_note(self):
        problems = self.record({"reader_pingpong/io_uring": 5000.0},
                               labels={"reader_pingpong/io_uring": "epoll"},
                               errors={"fd_scaling/io_uring/1": "io_uring_setup failed",
                                       "call_soon_batch": "boom"})
        self.assertEqual(problems, ["call_soon_batch: boom"])
        self.assertNotIn("reader_pingpong", self.results.ns_per_op)
        self.assertEqual(len(self.results.warnings), 1)
        self.assertIn("io_uring was not measured (fd_scaling/io_uring/1 and 1 more io_uring benchmark)",
                      self.results.warnings[0])

    def test_a_backend_missing_from_several_families_is_one_note(self):
        outcome = Outcome({}, {}, {"fd_scaling/io_uring/1": "io_uring_setup failed"}, {})
        record.record_benchmarks(job_for(self.stage, "c++ bench_s04 fd_scaling"), outcome,
                                 self.results)
        outcome = Outcome({"reader_pingpong/epoll": {"real_time": 4000.0}}, {},
                          {"reader_pingpong/io_uring": "io_uring_setup failed"}, {})
        record.record_benchmarks(job_for(self.stage, "c++ bench_s04 reader_pingpong"), outcome,
                                 self.results)
        self.assertEqual(self.results.warnings, [
            "c++ bench_s04: io_uring was not measured (fd_scaling/io_uring/1 and 1 more io_uring "
            "benchmark): io_uring_setup failed"])

    def test_cpu_time_goes_with_the_rows(self):
        outcome = Outcome({"tree": {"real_time": 3000.0, "cpu_time": 1000.0},
                           "tree/epoll": {"real_time": 2900.0, "cpu_time": 900.0},
                           "timers/8": {"real_time": 10.0, "cpu_time": 9.0},
                           "timers/64": {"real_time": 30.0}}, {}, {}, {})
        record.record_benchmarks(job_for(self.stage), outcome, self.results)
        self.assertEqual(self.results.cpu_ns_per_op["tree"],
                         {"looplab_s04": 1000.0, "looplab_s04_epoll": 900.0})
        self.assertEqual(self.results.ns_per_op["tree"]["looplab_s04"], 3000.0)
        self.assertNotIn("timers", self.results.cpu_ns_per_op)  # an argument had no CPU time

    def test_other_kinds_fold_every_name_into_its_workload(self):
        native = Implementation("epoll_floor", "raw epoll floor (C)", "native", "cpython_asyncio")
        outcome = Outcome({"reader_pingpong/epoll": {"real_time": 3900.0}}, {}, {}, {})
        record.record_benchmarks(job_for(native, "native epoll_pingpong"), outcome, self.results)
        self.assertEqual(self.results.ns_per_op["reader_pingpong"], {"epoll_floor": 3900.0})

    def test_variants_of_a_measured_workload_are_not_folded_into_it(self):
        # threadsafe_flood is the default configuration's row; its variants
        # (other wake-up configurations) must not replace it by their median.
        outcome = Outcome({"threadsafe_flood": {"real_time": 135.0},
                           "threadsafe_flood/socketpair_every_post": {"real_time": 400.0},
                           "threadsafe_flood/eventfd_every_post": {"real_time": 350.0},
                           "call_later/64": {"real_time": 20.0},
                           "call_later/1024": {"real_time": 40.0}}, {}, {}, {})
        record.record_benchmarks(job_for(self.stage), outcome, self.results)
        self.assertEqual(self.results.ns_per_op["threadsafe_flood"], {"looplab_s04": 135.0})
        self.assertEqual(self.results.ns_per_op["call_later"], {"looplab_s04": 30.0})


class RecordTcpEcho(unittest.TestCase):
    def test_figures_and_coro_tables(self):
        results = Results()
        streams = Implementation("cpython_asyncio_streams", "streams", "asyncio")
        coro = Implementation("looplab_s06_coro", "coro", "looplab", "cpython_asyncio_streams", stage=6)
        results.impls.update({streams.id: streams, coro.id: coro})
        outcome = Outcome({"tcp_echo_1": {"real_time": 20000.0, "cpu_time": 1.0,
                                          "server_cpu_ns_per_request": 9000.0}}, {}, {}, {})
        record.record_tcp_echo(job_for(streams), outcome, results)
        outcome = Outcome({"tcp_echo_coro_1": {"real_time": 15000.0, "requests_per_second": 66000.0,
                                               "server_cpu_ns_per_request": 7000.0,
                                               "server_user_cpu_ns_per_request": 3000.0}}, {}, {}, {})
        record.record_tcp_echo(job_for(coro), outcome, results)
        self.assertEqual(results.tcp["tcp_echo_1"]["cpython_asyncio_streams"],
                         {"ns_per_request": 20000.0, "requests_per_second": 50000.0,
                          "server_cpu_ns_per_request": 9000.0})
        self.assertEqual(results.workloads["tcp_echo_1"].group, "tcp_echo")
        record.add_twin_rows_to_coro_tables(results)
        self.assertEqual(set(results.tcp["tcp_echo_coro_1"]), {"looplab_s06_coro", "cpython_asyncio_streams"})
        self.assertEqual(results.ns_per_op["tcp_echo_coro_1"]["cpython_asyncio_streams"], 20000.0)


class Order(unittest.TestCase):
    def test_stages_with_their_backends_then_native_then_python(self):
        results = Results()
        for impl in [Implementation("cpython_asyncio", "", "asyncio"),
                     Implementation("libuv", "", "native"),
                     Implementation("looplab_s04_io_uring", "", "looplab", stage=4, backend="io_uring"),
                     Implementation("looplab_s04", "", "looplab", stage=4),
                     Implementation("looplab_s04_select", "", "looplab", stage=4, backend="select"),
                     Implementation("looplab_s03", "", "looplab", stage=3),
                     Implementation("uvloop", "", "uvloop")]:
            results.impls[impl.id] = impl
        record.sort_implementations(results)
        self.assertEqual(list(results.impls), ["looplab_s03", "looplab_s04", "looplab_s04_select",
                                               "looplab_s04_io_uring", "libuv", "cpython_asyncio",
                                               "uvloop"])


if __name__ == "__main__":
    unittest.main()
