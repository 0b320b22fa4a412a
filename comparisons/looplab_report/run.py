"""Running the planned jobs one at a time, with a progress line each on stderr."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

from looplab_report import discover, gbench, record
from looplab_report.formatting import format_ns
from looplab_report.gbench import Outcome
from looplab_report.model import Results
from looplab_report.plan import Job


def run_job(job: Job) -> Outcome:
    """Run one program; return what it measured, or raise RuntimeError with the reason."""
    env = {**os.environ, **job.env} if job.env else None
    try:
        result = subprocess.run(job.command, capture_output=True, text=True,
                                errors="replace", timeout=job.timeout, env=env)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"timed out after {job.timeout} s") from None
    except OSError as error:
        raise RuntimeError(str(error)) from None
    if result.returncode != 0:
        raise RuntimeError(f"exit status {result.returncode}\n{result.stderr.strip()}")
    return read_outcome(job, result.stderr)


def read_outcome(job: Job, stderr: str = "") -> Outcome:
    """What the JSON file a job wrote says, or RuntimeError."""
    try:
        outcome = gbench.read(job.raw)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RuntimeError(f"unreadable output {job.raw}: {error}\n{stderr.strip()}") from None
    if not outcome.metrics and not outcome.errors:
        raise RuntimeError(f"no benchmarks in {job.raw}")
    return outcome


def progress_text(job: Job, outcome: Outcome) -> str:
    """The end of a progress line: what the run measured."""
    if job.role == "tcp_echo":
        return ", ".join(
            f"{key} {format_ns(metrics['real_time'])} ns/req (server CPU "
            f"{format_ns(metrics.get('server_cpu_ns_per_request', metrics.get('cpu_time', 0)))})"
            for key, metrics in outcome.metrics.items() if "real_time" in metrics)
    figures = {key: metrics["real_time"] for key, metrics in outcome.metrics.items()
               if "real_time" in metrics}
    if len(figures) == 1:
        (ns,) = figures.values()
        return f"{format_ns(ns)} ns/op"
    return ", ".join(f"{name} {format_ns(ns)}" for name, ns in figures.items()) + " ns/op"


def note_context(job: Job, outcome: Outcome, results: Results) -> None:
    """What a run's JSON context says about it: libuv's version, the twins' gc."""
    if job.impl.id == "libuv" and outcome.context.get("libuv_version"):
        job.impl.label = discover.native_label("libuv", str(outcome.context["libuv_version"]))
    if job.impl.interpreter is not None and job.role == "benchmark":
        # gbench.py writes "gc": "on"|"off"; twins from before it did not.
        results.python_gc.setdefault(job.impl.id, set()).add(
            str(outcome.context.get("gc", "unknown")))


def record_outcome(job: Job, outcome: Outcome, results: Results) -> bool:
    """Put what a job measured into `results`; False if it missed something it should have."""
    results.succeeded.add(job.title)
    recorder = record.record_tcp_echo if job.role == "tcp_echo" else record.record_benchmarks
    problems = recorder(job, outcome, results)
    if problems:
        results.failures.append(f"{job.title}: " + "; ".join(problems)
                                + f"\n  command: {job.command_text()}")
    note_context(job, outcome, results)
    return not problems


def run_all(jobs: list[Job], results: Results,
            run: Optional[Callable[[Job], Outcome]] = None) -> None:
    """Run every job (with `run`, default run_job), printing one progress line each to stderr."""
    run = run or run_job
    for step, job in enumerate(jobs, start=1):
        print(f"[{step}/{len(jobs)}] {job.title} ... ", end="", file=sys.stderr, flush=True)
        reason = job.skip(results) if job.skip else None
        if reason:
            print("skipped", file=sys.stderr)
            results.warnings.append(f"{job.title}: skipped: {reason}.")
            continue
        try:
            outcome = run(job)
        except RuntimeError as error:
            print("FAILED", file=sys.stderr)
            results.failures.append(f"{job.title}: {error}\n  command: {job.command_text()}")
            continue
        clean = record_outcome(job, outcome, results)
        print(progress_text(job, outcome) + ("" if clean else " (with errors)"), file=sys.stderr)


def round_job(job: Job, round_number: int) -> Job:
    """The job's run in one round: the same command, writing
    raw/rounds/<name>--round<N>.json instead of raw/<name>.json."""
    raw = job.raw.parent / "rounds" / f"{job.raw.stem}--round{round_number}{job.raw.suffix}"
    command = [part.replace(str(job.raw), str(raw)) for part in job.command]
    return dataclasses.replace(job, command=command, raw=raw)


def merge_rounds(job: Job, rounds: list[Job]) -> None:
    """Write job.raw from the rounds' files: every round's runs, as one
    document with a repetition per round (its median is then theirs)."""
    documents = [json.loads(each.raw.read_text()) for each in rounds]
    entries = [{**entry, "repetition_index": index, "repetitions": len(documents)}
               for index, document in enumerate(documents)
               for entry in document.get("benchmarks", [])
               if entry.get("run_type") != "aggregate"]
    job.raw.write_text(json.dumps({"context": documents[0].get("context", {}),
                                   "benchmarks": entries}, indent=2) + "\n")


def run_interleaved(jobs: list[Job], results: Results, rounds: int,
                    run: Optional[Callable[[Job], Outcome]] = None) -> None:
    """Run every job `rounds` times, one repetition each time, round after
    round (every job once, then every job again), and record each job's
    median over its rounds. A burst of noise on the machine then costs one
    repetition of several programs, not every repetition of one, and a
    program and its twins are measured as close together in time as the
    jobs between them allow. A job that fails in a round is not run again.
    Jobs that repeat themselves (tcp_echo) or wait for others' results (a
    skip) run afterwards, once each, as run_all runs them."""
    run = run or run_job
    afterwards = [job for job in jobs if job.role != "benchmark" or job.skip is not None]
    jobs = [job for job in jobs if job.role == "benchmark" and job.skip is None]
    done: dict[int, list[Job]] = {index: [] for index in range(len(jobs))}
    failed: set[int] = set()
    for round_number in range(1, rounds + 1):
        for index, job in enumerate(jobs):
            if index in failed:
                continue
            this_round = round_job(job, round_number)
            this_round.raw.parent.mkdir(parents=True, exist_ok=True)
            print(f"[round {round_number}/{rounds}, {index + 1}/{len(jobs)}] {job.title} ... ",
                  end="", file=sys.stderr, flush=True)
            try:
                outcome = run(this_round)
            except RuntimeError as error:
                print("FAILED", file=sys.stderr)
                results.failures.append(f"{job.title} (round {round_number}): {error}"
                                        f"\n  command: {this_round.command_text()}")
                failed.add(index)
                continue
            done[index].append(this_round)
            print(progress_text(job, outcome), file=sys.stderr)
    for index, job in enumerate(jobs):
        if index in failed:
            continue
        try:
            merge_rounds(job, done[index])
            outcome = read_outcome(job)
        except (OSError, ValueError, RuntimeError) as error:
            results.failures.append(f"{job.title}: {error}\n  command: {job.command_text()}")
            continue
        record_outcome(job, outcome, results)
    run_all(afterwards, results, run)


def merge_raw_per_implementation(raw_dir: Path, results: Results) -> None:
    """Also write raw/<impl>.json holding all of an implementation's twins, so
    Google Benchmark's compare.py can diff a whole stage against it at once."""
    for impl in results.impls.values():
        parts = sorted(raw_dir.glob(f"{impl.id}--*.json"))
        if not parts:
            continue
        documents = [json.loads(part.read_text()) for part in parts]
        merged = {"context": documents[0]["context"],
                  "benchmarks": [entry for doc in documents for entry in doc["benchmarks"]]}
        (raw_dir / f"{impl.id}.json").write_text(json.dumps(merged, indent=2) + "\n")
