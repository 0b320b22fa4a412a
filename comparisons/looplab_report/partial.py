"""A partial run (``--stages 09,10``): only the stages named, each on the
workloads of the feature groups it introduces (features.toml), with those
workloads' twins and native programs. The whole report runs every stage's
binary on every workload it has and takes hours on two cores; a new chapter
needs only its own stage's figures. ``make reference-report`` merges a
partial run into the book's reference report (``merge_into_reference``)."""
from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Sequence

from looplab_report.model import Implementation, Workload

ROOT = Path(__file__).resolve().parent.parent.parent
FEATURES = ROOT / "features.toml"
BENCH_DIR = ROOT / "bench"
# The group whose chapter shows each native program's figures.
NATIVE_GROUPS = {"epoll_pingpong": "pollers", "libuv_pingpong": "pollers",
                 "libuv_threadsafe": "threadsafe", "libuv_executor": "executor"}
# The header key listing the partial runs merged into a reference report.
PARTIAL_RUNS = "partial runs"


def parse_stages(text: str) -> list[int]:
    """"07,08" -> [7, 8]; ValueError for anything else."""
    try:
        stages = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise ValueError(f"--stages {text!r}: expected stage numbers separated by commas, e.g. 09,10") from None
    if not stages:
        raise ValueError("--stages: no stage given")
    return stages


def groups_introduced(stages: Sequence[int], features: Path = FEATURES) -> set[str]:
    """The feature groups that the stages introduce."""
    table = tomllib.loads(features.read_text())["groups"]
    return {group for group, since in table.items() if since in stages}


def cpp_names(group: str, bench_dir: Path = BENCH_DIR) -> set[str]:
    """The benchmarks bench/<group>/*.cpp registers (BENCHMARK(name) or
    RegisterBenchmark("name", ...)): the first part of each one's name."""
    names = set()
    for source in sorted((bench_dir / group).glob("*.cpp")):
        text = source.read_text()
        names.update(re.findall(r"^BENCHMARK\((\w+)\)", text, re.M))
        names.update(re.findall(r'RegisterBenchmark\(\s*"(\w+)"', text))
    return names


def benchmark_filter(names: set[str]) -> str:
    """Google Benchmark's --benchmark_filter for these workloads and their
    variants (threadsafe_flood/eventfd/every_post), not other workloads that
    share a prefix (threadsafe_pingpong_pinned for threadsafe_pingpong)."""
    return "^(" + "|".join(sorted(names)) + ")(/|$)"


def select(stages: Sequence[int], cpp: list[tuple[int, Path]], twins: list[Workload],
           native: list[tuple[Implementation, Path]]):
    """What a partial run measures: (cpp, {stage: filter}, twins, native,
    groups): each stage's binary on the workloads of the groups it introduces."""
    groups = groups_introduced(stages)
    filters = {}
    for stage in stages:
        own = groups_introduced([stage])
        names = {workload.name for workload in twins if workload.group in own}
        for group in own:
            names |= cpp_names(group)
        if names:
            filters[stage] = benchmark_filter(names)
    return ([(stage, binary) for stage, binary in cpp if stage in filters], filters,
            [workload for workload in twins if workload.group in groups],
            [(impl, binary) for impl, binary in native if NATIVE_GROUPS.get(binary.name) in groups],
            groups)


def merge_into_reference(report_dir: Path, reference_dir: Path) -> list[str]:
    """Adds a partial run's figures to the reference report: its workloads'
    figures, implementations, targets and new charts, and a line in the
    header's "partial runs" (stages, date, mode). Everything else stays as the
    full run measured it. Returns what it did, a line each."""
    def load(directory, name):
        return json.loads((directory / name).read_text())

    header = dict(load(report_dir, "header.json"))
    summary, reference = load(report_dir, "summary.json"), load(reference_dir, "summary.json")
    for key, figures in summary.items():
        if key == "_targets":
            measured = {target["id"]: target for target in figures if target.get("value") is not None}
            reference["_targets"] = ([target for target in reference.get("_targets", [])
                                      if target["id"] not in measured] + list(measured.values()))
        elif isinstance(figures, dict):
            for impl_id, value in figures.items():
                reference.setdefault(key, {})[impl_id] = value
    impls, reference_impls = load(report_dir, "implementations.json"), load(reference_dir, "implementations.json")
    for impl_id, impl in impls.items():
        known = reference_impls.setdefault(impl_id, impl)
        if known is not impl:
            known.setdefault("notes", {}).update(impl.get("notes") or {})
    reference_header = dict(load(reference_dir, "header.json"))
    runs = [run for run in reference_header.get(PARTIAL_RUNS, []) if run["stages"] != header["stages"]]
    runs.append({key: header[key] for key in ("stages", "date", "mode", "machine") if key in header})
    reference_header[PARTIAL_RUNS] = runs
    added = []
    for chart in sorted((report_dir / "charts").glob("*.svg")):
        # A chart of the whole report (every stage) is not redrawn from a part of it.
        if not (reference_dir / "charts" / chart.name).exists():
            shutil.copyfile(chart, reference_dir / "charts" / chart.name)
            added.append(chart.name)
    for name, content in (("summary.json", reference), ("implementations.json", reference_impls),
                          ("header.json", reference_header)):
        (reference_dir / name).write_text(json.dumps(content, indent=2, sort_keys=True) + "\n")
    return [f"merged stages {header['stages']} ({header.get('date', '?')}) into {reference_dir}",
            f"new charts: {', '.join(added) if added else 'none'}"]
