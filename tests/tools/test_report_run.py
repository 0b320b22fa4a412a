"""Tests for looplab_report.run's interleaved rounds: every job once a round,
each round's file kept apart, a job's figure the median of its rounds (the
programs are stand-ins that write Google Benchmark JSON; nothing is measured).

Run from the repo root:  make test-tools
"""
import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from looplab_report import run
from looplab_report.model import Implementation, Results
from looplab_report.plan import Job

LOOPLAB = Implementation("looplab_s07", "looplab stage 07", "looplab")
ASYNCIO = Implementation("cpython_asyncio", "CPython 3.13.0 asyncio", "asyncio")


def write_run(path, name, ns):
    """What a program run with one repetition writes: one iteration entry."""
    path.write_text(json.dumps({"context": {"executable": name}, "benchmarks": [
        {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "iterations": 100, "real_time": ns, "cpu_time": ns,
         "time_unit": "ns"}]}))


class FakePrograms:
    """run_job's stand-in: a job's figure each round comes from `figures`
    ({title: [ns of round 1, ns of round 2, ...]}); order records the runs."""

    def __init__(self, figures, fail=()):
        self.figures, self.fail, self.order = figures, set(fail), []
        self.rounds = {title: 0 for title in figures}

    def __call__(self, job):
        title = job.title
        self.order.append(title)
        if title in self.fail:
            raise RuntimeError("exit status 1")
        ns = self.figures[title][self.rounds[title]]
        self.rounds[title] += 1
        write_run(job.raw, "fanout_cached", ns)
        return run.read_outcome(job)


def job(directory, impl, title):
    raw = Path(directory) / f"{impl.id}--fanout_cached.json"
    return Job(impl, title, ["bench", f"--benchmark_out={raw}"], raw, 10)


class Interleaved(unittest.TestCase):
    def run_rounds(self, directory, programs, rounds, jobs):
        results = Results()
        results.impls = {impl.id: impl for impl in (LOOPLAB, ASYNCIO)}
        with contextlib.redirect_stderr(io.StringIO()):
            run.run_interleaved(jobs, results, rounds, programs)
        return results

    def test_every_job_runs_once_a_round(self):
        with tempfile.TemporaryDirectory() as directory:
            jobs = [job(directory, LOOPLAB, "c++"), job(directory, ASYNCIO, "twin")]
            programs = FakePrograms({"c++": [60, 61, 59], "twin": [1800, 1700, 1750]})
            self.run_rounds(directory, programs, 3, jobs)
        self.assertEqual(programs.order, ["c++", "twin"] * 3)

    def test_each_round_writes_a_file_of_its_own(self):
        original = job("/raw", LOOPLAB, "c++")
        second = run.round_job(original, 2)
        self.assertEqual(second.raw, Path("/raw/rounds/looplab_s07--fanout_cached--round2.json"))
        self.assertEqual(second.command, ["bench", f"--benchmark_out={second.raw}"])
        self.assertEqual(original.raw, Path("/raw/looplab_s07--fanout_cached.json"))

    def test_a_jobs_figure_is_the_median_of_its_rounds(self):
        with tempfile.TemporaryDirectory() as directory:
            jobs = [job(directory, LOOPLAB, "c++"), job(directory, ASYNCIO, "twin")]
            # A burst of noise in round 2 touches both, once each.
            programs = FakePrograms({"c++": [60, 105, 58], "twin": [1800, 3000, 1750]})
            results = self.run_rounds(directory, programs, 3, jobs)
            merged = json.loads(jobs[0].raw.read_text())
        self.assertEqual(results.failures, [])
        self.assertEqual(results.ns_per_op["fanout_cached"][LOOPLAB.id], 60)
        self.assertEqual(results.ns_per_op["fanout_cached"][ASYNCIO.id], 1800)
        self.assertEqual([entry["repetition_index"] for entry in merged["benchmarks"]], [0, 1, 2])
        self.assertEqual({entry["repetitions"] for entry in merged["benchmarks"]}, {3})

    def test_a_job_that_fails_is_not_run_again_and_the_others_go_on(self):
        with tempfile.TemporaryDirectory() as directory:
            jobs = [job(directory, LOOPLAB, "c++"), job(directory, ASYNCIO, "twin")]
            programs = FakePrograms({"c++": [60, 61], "twin": []}, fail={"twin"})
            results = self.run_rounds(directory, programs, 2, jobs)
        self.assertEqual(programs.order, ["c++", "twin", "c++"])
        self.assertEqual(len(results.failures), 1)
        self.assertIn("twin (round 1): exit status 1", results.failures[0])
        self.assertNotIn(ASYNCIO.id, results.ns_per_op["fanout_cached"])
        self.assertEqual(results.ns_per_op["fanout_cached"][LOOPLAB.id], 60.5)

    def test_jobs_that_repeat_themselves_run_once_afterwards(self):
        with tempfile.TemporaryDirectory() as directory:
            echo = Job(ASYNCIO, "tcp_echo", ["tcp_echo.py"], Path(directory) / "echo.json", 10,
                       role="tcp_echo", skip=lambda results: "no server here")
            jobs = [echo, job(directory, LOOPLAB, "c++")]
            programs = FakePrograms({"c++": [60, 61]})
            results = self.run_rounds(directory, programs, 2, jobs)
        self.assertEqual(programs.order, ["c++", "c++"])
        self.assertEqual(results.warnings, ["tcp_echo: skipped: no server here."])


if __name__ == "__main__":
    unittest.main()
