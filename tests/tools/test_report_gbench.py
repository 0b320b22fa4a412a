"""Tests for looplab_report.gbench: reading Google Benchmark's JSON.

Run from the repo root:  make test-tools
"""
import json
import tempfile
import unittest
from pathlib import Path

from looplab_report import gbench

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def entry(name, real, cpu=None, unit="ns", run_type="iteration", **extra):
    """One benchmark entry as Google Benchmark writes it."""
    return {"name": name, "run_name": name, "run_type": run_type, "iterations": 10,
            "real_time": real, "cpu_time": real if cpu is None else cpu, "time_unit": unit,
            **extra}


class BenchmarkKey(unittest.TestCase):
    def test_plain_name(self):
        self.assertEqual(gbench.benchmark_key({"name": "call_soon_batch"}), "call_soon_batch")

    def test_options_are_dropped_arguments_kept(self):
        for name, key in [("reader_pingpong/epoll/real_time", "reader_pingpong/epoll"),
                          ("fd_scaling/select/1000/min_time:0.010", "fd_scaling/select/1000"),
                          ("task_sleep0/repeats:3/threads:1", "task_sleep0"),
                          ("x/iterations:100/manual_time", "x"),
                          ("fd_scaling/epoll/idle:100/process_time", "fd_scaling/epoll/idle:100")]:
            with self.subTest(name=name):
                self.assertEqual(gbench.benchmark_key({"name": name}), key)

    def test_run_name_wins_over_name(self):
        # An aggregate's name has a _median suffix; its run_name does not.
        self.assertEqual(gbench.benchmark_key({"name": "a/epoll_median", "run_name": "a/epoll"}),
                         "a/epoll")


class Metrics(unittest.TestCase):
    def test_repetitions_use_the_median_aggregate(self):
        outcome = gbench.read(FIXTURES / "report_gbench_repetitions.json")
        self.assertEqual(outcome.metrics["call_soon_batch"], {"real_time": 111.0, "cpu_time": 108.0})

    def test_without_aggregates_the_median_of_the_runs(self):
        outcome = gbench.read(FIXTURES / "report_gbench_repetitions.json")
        # 5, 7 and 6 us: the median is 6 us, in ns.
        self.assertEqual(outcome.metrics["reader_pingpong/epoll"],
                         {"real_time": 6000.0, "cpu_time": 5000.0})

    def test_an_even_number_of_runs_averages_the_middle_two(self):
        document = {"benchmarks": [entry("a", 10.0), entry("a", 20.0)]}
        metrics, _ = gbench.metrics_by_benchmark(document)
        self.assertEqual(metrics["a"]["real_time"], 15.0)

    def test_only_aggregates(self):
        document = {"benchmarks": [entry("a", 3.0, run_type="aggregate", aggregate_name="mean"),
                                   entry("a", 2.0, run_type="aggregate", aggregate_name="median")]}
        metrics, errors = gbench.metrics_by_benchmark(document)
        self.assertEqual(metrics, {"a": {"real_time": 2.0, "cpu_time": 2.0}})
        self.assertEqual(errors, {})

    def test_time_units(self):
        for unit, factor in [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9)]:
            with self.subTest(unit=unit):
                metrics, _ = gbench.metrics_by_benchmark({"benchmarks": [entry("a", 1.5, 0.5, unit)]})
                self.assertEqual(metrics["a"], {"real_time": 1.5 * factor, "cpu_time": 0.5 * factor})

    def test_missing_time_unit_is_ns(self):
        bare = {"name": "a", "run_type": "iteration", "real_time": 4.0, "cpu_time": 3.0}
        metrics, _ = gbench.metrics_by_benchmark({"benchmarks": [bare]})
        self.assertEqual(metrics["a"], {"real_time": 4.0, "cpu_time": 3.0})

    def test_counters_are_kept_unscaled(self):
        document = {"benchmarks": [entry("tcp_echo_1", 2.0, unit="us",
                                         server_cpu_ns_per_request=900,
                                         requests_per_second=5e5, skipped=False)]}
        metrics, _ = gbench.metrics_by_benchmark(document)
        self.assertEqual(metrics["tcp_echo_1"], {"real_time": 2000.0, "cpu_time": 2000.0,
                                                 "server_cpu_ns_per_request": 900.0,
                                                 "requests_per_second": 5e5})

    def test_own_fields_and_booleans_are_not_counters(self):
        document = {"benchmarks": [entry("a", 1.0, repetitions=3, threads=1, family_index=0,
                                         error_occurred=False)]}
        metrics, _ = gbench.metrics_by_benchmark(document)
        self.assertEqual(set(metrics["a"]), {"real_time", "cpu_time"})

    def test_counter_median_over_the_runs_that_have_it(self):
        document = {"benchmarks": [entry("a", 1.0, hits=4), entry("a", 1.0), entry("a", 1.0, hits=8)]}
        metrics, _ = gbench.metrics_by_benchmark(document)
        self.assertEqual(metrics["a"]["hits"], 6.0)


class Errors(unittest.TestCase):
    def test_error_rows(self):
        outcome = gbench.read(FIXTURES / "report_gbench_repetitions.json")
        self.assertEqual(outcome.errors,
                         {"reader_pingpong/io_uring": "io_uring_setup: Operation not permitted"})
        self.assertNotIn("reader_pingpong/io_uring", outcome.metrics)

    def test_skipped_rows(self):
        document = {"benchmarks": [entry("a", 0.0, skipped=True, skip_message="no kqueue"),
                                   entry("b", 0.0, skipped=True)]}
        metrics, errors = gbench.metrics_by_benchmark(document)
        self.assertEqual(metrics, {})
        self.assertEqual(errors, {"a": "no kqueue", "b": "skipped"})

    def test_an_error_in_one_repetition_drops_the_benchmark(self):
        document = {"benchmarks": [entry("a", 1.0),
                                   entry("a", 0.0, error_occurred=True, error_message="boom")]}
        metrics, errors = gbench.metrics_by_benchmark(document)
        self.assertEqual((metrics, errors), ({}, {"a": "boom"}))

    def test_empty_document(self):
        self.assertEqual(gbench.metrics_by_benchmark({}), ({}, {}))


class Labels(unittest.TestCase):
    def test_labels_per_benchmark(self):
        outcome = gbench.read(FIXTURES / "report_gbench_repetitions.json")
        self.assertEqual(outcome.labels, {"call_soon_batch": "no I/O poll per turn",
                                          "reader_pingpong/epoll": "epoll"})

    def test_first_label_wins_blank_ones_do_not_count(self):
        document = {"benchmarks": [entry("a", 1.0, label="  "), entry("a", 1.0, label=" first "),
                                   entry("a", 1.0, label="second"), entry("b", 1.0)]}
        self.assertEqual(gbench.labels_by_benchmark(document), {"a": "first"})


class Read(unittest.TestCase):
    def test_context_and_everything_else(self):
        outcome = gbench.read(FIXTURES / "report_gbench_repetitions.json")
        self.assertEqual(outcome.context["library_build_type"], "release")
        self.assertEqual(list(outcome.metrics), ["call_soon_batch", "reader_pingpong/epoll"])

    def test_unreadable_files_raise(self):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "bad.json"
            path.write_text("{not json")
            with self.assertRaises(ValueError):
                gbench.read(path)
            path.write_text(json.dumps({"benchmarks": [{"run_type": "iteration"}]}))
            with self.assertRaises(KeyError):
                gbench.read(path)
            with self.assertRaises(OSError):
                gbench.read(Path(directory) / "missing.json")


if __name__ == "__main__":
    unittest.main()
