"""The stages' targets (targets.toml), checked on a run's figures: met, not
met, or not measured and why."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

from looplab_report import discover, policy
from looplab_report.model import Results
from looplab_report.policy import Operand, TargetSpec

OP_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">"}
MEASURE_WORDS = {"cpu": " CPU time per op",
                 "server_cpu": " server CPU per request",
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
    # A "same direction as" goal: the reference ratio's label and value.
    reference_label: str = ""
    reference_value: Optional[float] = None

    @property
    def op(self) -> Optional[str]:
        """The goal's operator: a "same direction as" goal's is the reference
        ratio's side of 1 ("<" or ">"; None while it is not measured)."""
        if self.spec.op != policy.SAME_DIRECTION:
            return self.spec.op
        if self.reference_value is None:
            return None
        return "<" if self.reference_value < 1 else ">"

    @property
    def met(self) -> Optional[bool]:
        if self.value is None or self.op is None:
            return None
        return {"<=": self.value <= self.spec.limit, "<": self.value < self.spec.limit,
                ">=": self.value >= self.spec.limit, ">": self.value > self.spec.limit}[self.op]

    @property
    def status(self) -> str:
        if self.met is None:
            return f"not measured ({self.missing})"
        return "met" if self.met else "not met"

    @property
    def goal(self) -> str:
        if self.spec.op == policy.SAME_DIRECTION:
            if self.op is None:
                return f"as {self.reference_label}"
            return (f"{OP_SYMBOLS[self.op]}\u00a01×, as {self.reference_label}: "
                    f"{self.reference_value:.2f}×")
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
        data = {"id": self.spec.id, "workload": self.spec.workload,
                "measure": self.spec.measure, "numerator": self.numerator,
                "denominator": self.denominator, "value": None if self.value is None
                else round(self.value, 4), "op": self.spec.op, "limit": self.spec.limit,
                "met": self.met, "stage": self.stage, "text": self.text}
        if self.spec.reference is not None:
            data["reference"] = None if self.reference_value is None else round(self.reference_value, 4)
        return data


def target_figures(spec: TargetSpec, results: Results, workload: str = "") -> dict[str, float]:
    """{impl id: figure} of the target's workload (or of `workload`), in its measure."""
    workload = workload or spec.workload
    if spec.measure in ("server_cpu", "server_user_cpu"):
        field = f"{spec.measure}_ns_per_request"
        return {impl_id: figures[field]
                for impl_id, figures in results.tcp.get(workload, {}).items()
                if field in figures}
    if spec.measure == "cpu":
        return results.cpu_ns_per_op.get(workload, {})
    return results.ns_per_op.get(workload, {})


def looplab_stages(results: Results, first: int) -> list[int]:
    """Every looplab stage >= `first` that this report knows, latest first."""
    return sorted({impl.stage for impl in results.impls.values() if impl.kind == "looplab"
                   and impl.stage is not None and impl.stage >= first}, reverse=True)


def resolve(operand: Operand, stage: Optional[int], first: int, results: Results) -> tuple[str, str]:
    """(implementation id, label) of an operand, for looplab stage `stage`
    (None: no stage from `first` on ran). The label names the operand's own
    workload, if it has one ("looplab stage 07 on fanout_cached")."""
    on = f" on {operand.workload}" if operand.workload else ""
    if operand.kind == "looplab":
        suffix, backend = (f"_{operand.name}", f" ({operand.name})") if operand.name else ("", "")
        if stage is None:
            return f"looplab_sNN{suffix}", f"looplab stage ≥ {first:02d}{backend}{on}"
        return f"looplab_s{stage:02d}{suffix}", f"looplab stage {stage:02d}{backend}{on}"
    if operand.name in results.impls:
        return operand.name, results.impls[operand.name].label + on
    natives = {impl_id for impl_id, _, _ in discover.NATIVE_PROGRAMS}
    label = discover.native_label(operand.name) if operand.name in natives else operand.name
    return operand.name, label + on


def operand_figure(spec: TargetSpec, operand: Operand, stage: Optional[int],
                   results: Results) -> Optional[float]:
    """An operand's figure, on its own workload or the target's; None if not measured."""
    impl_id = resolve(operand, stage, spec.stage, results)[0]
    return target_figures(spec, results, operand.workload).get(impl_id)


def ratio_of(spec: TargetSpec, operands: tuple[Operand, Operand], stage: Optional[int],
             results: Results) -> tuple[Optional[float], str]:
    """(numerator / denominator, "") for looplab stage `stage`, or (None, why not)."""
    numerator, denominator = (operand_figure(spec, operand, stage, results) for operand in operands)
    if stage is None and any(operand.kind == "looplab" for operand in operands):
        return None, f"no looplab stage ≥ {spec.stage:02d} ran"
    if numerator is not None and denominator:
        return numerator / denominator, ""
    if numerator is not None and denominator is not None:
        label = resolve(operands[1], stage, spec.stage, results)[1]
        return None, f"{label}'s figure is 0: the run was too short to measure it"
    return None, why_missing(spec, operands, stage, results)


def why_missing(spec: TargetSpec, operands: tuple[Operand, Operand], stage: Optional[int],
                results: Results) -> str:
    """Which operand did not run, or did not measure its workload."""
    ran = {impl_id for by_impl in results.ns_per_op.values() for impl_id in by_impl}
    reasons = []
    for operand in operands:
        if operand_figure(spec, operand, stage, results) is not None:
            continue
        impl_id, label = resolve(operand, stage, spec.stage, results)
        label = label.removesuffix(f" on {operand.workload}")
        workload = operand.workload or spec.workload
        reasons.append(f"{label} did not measure {workload}" if impl_id in ran
                       else f"{label} did not run")
    return "; ".join(dict.fromkeys(reasons))  # the same reason once


def check_target(spec: TargetSpec, results: Results) -> Target:
    """The target's ratio from the latest looplab stage, from spec.stage on, that
    has both rows (if none has them, the latest names what is missing). A "same
    direction as" goal's reference ratio is taken from the same run."""
    stages = looplab_stages(results, spec.stage)
    operands = (spec.numerator, spec.denominator)

    def present(stage: Optional[int]) -> bool:
        return all(operand_figure(spec, operand, stage, results) is not None for operand in operands)

    stage = next((stage for stage in stages if present(stage)), stages[0] if stages else None)
    (num, num_label), (den, den_label) = (resolve(operand, stage, spec.stage, results)
                                          for operand in operands)
    target = Target(spec, num, den, num_label, den_label, stage=stage)
    target.value, target.missing = ratio_of(spec, operands, stage, results)
    if spec.reference is not None:
        (ref_num, ref_num_label), (ref_den, ref_den_label) = (
            resolve(operand, stage, spec.stage, results) for operand in spec.reference)
        # One implementation on two workloads, as the target's own ratio: its name says it.
        target.reference_label = (
            resolve(replace(spec.reference[0], workload=""), stage, spec.stage, results)[1]
            if ref_num == ref_den else f"{ref_num_label} / {ref_den_label}")
        target.reference_value, why = ratio_of(spec, spec.reference, stage, results)
        if target.value is not None and target.reference_value is None:
            target.missing = why
    return target


def check_targets(results: Results, specs: Optional[Iterable[TargetSpec]] = None) -> list[Target]:
    """The targets (default: targets.toml's) of the stages up to the latest
    looplab stage that ran: none when no stage that set one ran (they are its
    goals), and not yet the goals of a later stage."""
    specs = list(policy.load().targets if specs is None else specs)
    stages = looplab_stages(results, min((spec.stage for spec in specs), default=0))
    if not specs or not stages:
        return []
    return [check_target(spec, results) for spec in specs if spec.stage <= stages[0]]


def stage_span(specs: Iterable[TargetSpec]) -> tuple[int, int]:
    """(first, last) stage that set a target."""
    stages = [spec.stage for spec in specs]
    return min(stages), max(stages)
