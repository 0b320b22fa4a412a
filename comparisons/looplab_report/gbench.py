"""Reading Google Benchmark's JSON (the C++ binaries', the twins', tcp_echo.py's).

A document is {"context": {...}, "benchmarks": [entry, ...]}; an entry is one
run ("run_type": "iteration") or an aggregate of the repetitions
("run_type": "aggregate", "aggregate_name": "mean", "median", ...), with
real_time and cpu_time in its "time_unit", maybe a "label" (state.SetLabel),
an error ("error_occurred" or "skipped"), and any counters as extra numbers.
"""
from __future__ import annotations

import json
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
TIMES = ("real_time", "cpu_time")
# Google Benchmark's own fields of a benchmark entry; any other number in an
# entry is a counter (tcp_echo.py writes server_cpu_ns_per_request, requests_per_second).
GBENCH_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                 "repetitions", "repetition_index", "threads", "iterations", "real_time",
                 "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "label",
                 "error_occurred", "error_message", "skipped", "skip_message", "big_o", "rms"}
# Name components Google Benchmark appends for options, not arguments.
GBENCH_OPTION = re.compile(r"^(real_time|process_time|manual_time|"
                           r"(iterations|repeats|threads|min_time|min_warmup_time):.*)$")


@dataclass
class Outcome:
    """What one document says."""

    metrics: dict[str, dict[str, float]]  # {benchmark: {"real_time": ns, ...}}
    labels: dict[str, str]                # {benchmark: its state.SetLabel text}
    errors: dict[str, str]                # {benchmark: why it did not run}
    context: dict


def benchmark_key(entry: dict) -> str:
    """An entry's benchmark name without Google Benchmark's option suffixes:
    "reader_pingpong/epoll", "fd_scaling/select/1000", "call_soon_batch"."""
    parts = (entry.get("run_name") or entry["name"]).split("/")
    return "/".join([parts[0]] + [part for part in parts[1:] if not GBENCH_OPTION.match(part)])


def entry_value(entry: dict, name: str) -> float:
    """A field of an entry: a time in ns, or a counter."""
    if name in TIMES:
        return entry[name] * TIME_UNIT_NS[entry.get("time_unit", "ns")]
    return float(entry[name])


def metric_names(entries: list[dict]) -> list[str]:
    """The times and counters the entries have, sorted."""
    return sorted({name for entry in entries for name, number in entry.items()
                   if name in TIMES or (name not in GBENCH_FIELDS and isinstance(number, (int, float))
                                        and not isinstance(number, bool))})


def sort_entries(document: dict) -> tuple[dict[str, list[dict]], dict[str, dict], dict[str, str]]:
    """({benchmark: its iteration runs}, {benchmark: its median aggregate},
    {benchmark: its error}), each benchmark as benchmark_key names it."""
    iterations: dict[str, list[dict]] = {}
    medians: dict[str, dict] = {}
    errors: dict[str, str] = {}
    for entry in document.get("benchmarks", []):
        key = benchmark_key(entry)
        if entry.get("error_occurred") or entry.get("skipped"):
            errors[key] = str(entry.get("error_message") or entry.get("skip_message") or "skipped")
        elif entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[key] = entry
        else:
            iterations.setdefault(key, []).append(entry)
    return iterations, medians, errors


def metrics_by_benchmark(document: dict) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """({benchmark: {field: value}}, {benchmark: error}) from one Google Benchmark JSON document.

    The fields are real_time and cpu_time in ns, and any counters. Each is the
    "median" aggregate's when there is one, else the median of the plain
    iteration runs (a single one when there were no repetitions). A benchmark
    that reported an error (or was skipped) is in the second dict instead.
    """
    iterations, medians, errors = sort_entries(document)
    figures: dict[str, dict[str, float]] = {}
    for key in list(iterations) + [key for key in medians if key not in iterations]:
        if key in errors:
            continue
        runs, median = iterations.get(key, []), medians.get(key)
        figures[key] = {}
        for name in metric_names(runs + ([median] if median else [])):
            if median is not None and name in median:
                figures[key][name] = entry_value(median, name)
            elif any(name in entry for entry in runs):
                figures[key][name] = statistics.median(
                    entry_value(entry, name) for entry in runs if name in entry)
    return figures, errors


def labels_by_benchmark(document: dict) -> dict[str, str]:
    """{benchmark: label} from one Google Benchmark JSON document.

    A benchmark that calls ``state.SetLabel(text)`` gets a "label" field in each
    of its entries; benchmarks that do not (and older binaries) have none.
    """
    labels: dict[str, str] = {}
    for entry in document.get("benchmarks", []):
        label = (entry.get("label") or "").strip()
        if label:
            labels.setdefault(benchmark_key(entry), label)
    return labels


def parse(document: dict) -> Outcome:
    """Everything a document says (KeyError or TypeError if it is malformed)."""
    metrics, errors = metrics_by_benchmark(document)
    return Outcome(metrics, labels_by_benchmark(document), errors, document.get("context", {}))


def read(path: Path) -> Outcome:
    """The document in `path` (OSError, ValueError, KeyError or TypeError if unreadable)."""
    return parse(json.loads(path.read_text()))
