"""The stages' targets (targets.toml), checked on a run's figures: met, not
met, or not measured and why."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from looplab_report import discover, policy
from looplab_report.model import Results
from looplab_report.policy import Operand, TargetSpec

OP_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">"}
MEASURE_WORDS = {"server_cpu": " server CPU per request",
                 "server_user_cpu": " server user-space CPU per request"}


@dataclass
class Target:
    """A TargetSpec checked against this run."""

    spec: TargetSpec
    numerator: str          # the implementation ids, or what they would be
    denominator: str
    numerator_label: str
    denominator_label: str
    value: Optional[float] = None
    stage: Optional[int] = None
    missing: str = ""       # why there is no value

    @property
    def met(self) -> Optional[bool]:
        if self.value is None:
            return None
        return {"<=": self.value <= self.spec.limit, "<": self.value < self.spec.limit,
                ">=": self.value >= self.spec.limit, ">": self.value > self.spec.limit}[self.spec.op]

    @property
    def status(self) -> str:
        if self.met is None:
            return f"not measured ({self.missing})"
        return "met" if self.met else "not met"

    @property
    def goal(self) -> str:
        return f"{OP_SYMBOLS[self.spec.op]}\u00a0{self.spec.limit:g}×"  # no break after ≤

    @property
    def measured(self) -> str:
        return "n/a" if self.value is None else f"{self.value:.2f}×"

    @property
    def what(self) -> str:
        measure = MEASURE_WORDS.get(self.spec.measure, "")
        return (f"{self.spec.workload}{measure}: {self.numerator_label} / "
                f"{self.denominator_label}")

    @property
    def text(self) -> str:
        return f"{self.what} = {self.measured} (target {self.goal}): {self.status}"

    def as_json(self) -> dict:
        return {"id": self.spec.id, "workload": self.spec.workload,
                "measure": self.spec.measure, "numerator": self.numerator,
                "denominator": self.denominator, "value": None if self.value is None
                else round(self.value, 4), "op": self.spec.op, "limit": self.spec.limit,
                "met": self.met, "stage": self.stage, "text": self.text}


def target_figures(spec: TargetSpec, results: Results) -> dict[str, float]:
    """{impl id: figure} of the target's workload, in its measure."""
    if spec.measure in ("server_cpu", "server_user_cpu"):
        field = f"{spec.measure}_ns_per_request"
        return {impl_id: figures[field]
                for impl_id, figures in results.tcp.get(spec.workload, {}).items()
                if field in figures}
    return results.ns_per_op.get(spec.workload, {})


def looplab_stages(results: Results, first: int) -> list[int]:
    """Every looplab stage >= `first` that this report knows, latest first."""
    return sorted({impl.stage for impl in results.impls.values() if impl.kind == "looplab"
                   and impl.stage is not None and impl.stage >= first}, reverse=True)


def resolve(operand: Operand, stage: Optional[int], first: int, results: Results) -> tuple[str, str]:
    """(implementation id, label) of an operand, for looplab stage `stage`
    (None: no stage from `first` on ran)."""
    if operand.kind == "looplab":
        suffix, backend = (f"_{operand.name}", f" ({operand.name})") if operand.name else ("", "")
        if stage is None:
            return f"looplab_sNN{suffix}", f"looplab stage ≥ {first:02d}{backend}"
        return f"looplab_s{stage:02d}{suffix}", f"looplab stage {stage:02d}{backend}"
    if operand.name in results.impls:
        return operand.name, results.impls[operand.name].label
    natives = {impl_id for impl_id, _, _ in discover.NATIVE_PROGRAMS}
    return operand.name, discover.native_label(operand.name) if operand.name in natives else operand.name


def why_missing(target: Target, figures: dict[str, float], results: Results) -> str:
    """Which operand did not run, or did not measure the workload."""
    ran = {impl_id for by_impl in results.ns_per_op.values() for impl_id in by_impl}
    return "; ".join(
        f"{label} did not measure {target.spec.workload}" if impl_id in ran else f"{label} did not run"
        for impl_id, label in ((target.numerator, target.numerator_label),
                               (target.denominator, target.denominator_label))
        if impl_id not in figures)


def check_target(spec: TargetSpec, results: Results) -> Target:
    """The target's ratio from the latest looplab stage, from spec.stage on, that
    has both rows (if none has them, the latest names what is missing)."""
    figures = target_figures(spec, results)
    stages = looplab_stages(results, spec.stage)
    operands = (spec.numerator, spec.denominator)

    def present(stage: Optional[int]) -> bool:
        return all(resolve(operand, stage, spec.stage, results)[0] in figures for operand in operands)

    stage = next((stage for stage in stages if present(stage)), stages[0] if stages else None)
    (num, num_label), (den, den_label) = (resolve(operand, stage, spec.stage, results)
                                          for operand in operands)
    target = Target(spec, num, den, num_label, den_label, stage=stage)
    if stage is None and any(operand.kind == "looplab" for operand in operands):
        target.missing = f"no looplab stage ≥ {spec.stage:02d} ran"
    elif present(stage) and figures[den] > 0:
        target.value = figures[num] / figures[den]
    elif present(stage):
        target.missing = f"{den_label}'s figure is 0: the run was too short to measure it"
    else:
        target.missing = why_missing(target, figures, results)
    return target


def check_targets(results: Results, specs: Optional[Iterable[TargetSpec]] = None) -> list[Target]:
    """Every target (default: targets.toml's), or none when no looplab stage
    that set one ran (they are its goals)."""
    specs = list(policy.load().targets if specs is None else specs)
    if not specs or not looplab_stages(results, min(spec.stage for spec in specs)):
        return []
    return [check_target(spec, results) for spec in specs]


def stage_span(specs: Iterable[TargetSpec]) -> tuple[int, int]:
    """(first, last) stage that set a target."""
    stages = [spec.stage for spec in specs]
    return min(stages), max(stages)
