"""The per-stage policy and the targets, read from targets.toml (its comments
say what each entry means). Nothing here knows a stage number: they are data.
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POLICY_FILE = Path(__file__).with_name("targets.toml")
OPERATORS = ("<=", "<", ">=", ">")
# goal = "same direction as A / B": the ratio is on the same side of 1 as A / B is.
SAME_DIRECTION = "same direction as"
MEASURES = ("wall", "cpu", "server_cpu", "server_user_cpu")


class PolicyError(ValueError):
    """targets.toml says something the report cannot use."""


@dataclass(frozen=True)
class Operand:
    """One side of a target's ratio: ("looplab", backend) is the latest looplab
    stage that has the rows, on that backend ("" for the stage's own row), and
    ("impl", id) one implementation; on the target's workload, or on
    `workload` ("looplab@fanout_cached": the same stage's figure of another
    workload, such as a lazy variant set against its eager one)."""

    kind: str
    name: str
    workload: str = ""


@dataclass(frozen=True)
class TargetSpec:
    """A ratio of two figures (two implementations on one workload, or one on
    two workloads), with the bound it should meet."""

    id: str
    stage: int               # the stage that set the goal: looplab operands are from it on
    workload: str
    measure: str             # "wall", "cpu", "server_cpu" or "server_user_cpu"
    numerator: Operand
    denominator: Operand
    op: str                  # one of OPERATORS, or SAME_DIRECTION
    limit: float             # 1 for SAME_DIRECTION
    # SAME_DIRECTION: the ratio whose side of 1 this one should be on.
    reference: tuple[Operand, Operand] | None = None


@dataclass(frozen=True)
class CoroEcho:
    """looplab's coroutine echo server: see [coro_echo] in targets.toml."""

    server: str
    first_stage: int
    backend: str
    prefix: str
    connections: tuple[int, ...]
    name: str
    label: str
    twin: str


@dataclass(frozen=True)
class AsyncTree:
    """The async_tree table: see [async_tree] in targets.toml."""

    prefix: str
    variants: tuple[str, ...]
    flavours: tuple[tuple[str, str], ...]  # (workload suffix, what the table calls it)

    def workload_parts(self, workload: str) -> tuple[str, str] | None:
        """(variant, flavour) of an async_tree workload, else None."""
        for variant in self.variants:
            for suffix, flavour in self.flavours:
                if workload == f"{self.prefix}{variant}{suffix}":
                    return variant, flavour
        return None


@dataclass(frozen=True)
class Policy:
    """Everything targets.toml says."""

    backends: tuple[str, ...]
    first_poller_stage: int
    epoll_baseline_groups: frozenset[str]
    echo_server: str
    echo_first_stage: int
    echo_backends: tuple[str, ...]
    coro_echo: CoroEcho
    async_tree: AsyncTree
    targets: tuple[TargetSpec, ...]

    def backend_rank(self, backend: str | None) -> int:
        """A backend's place in table order (unknown ones last)."""
        return self.backends.index(backend) if backend in self.backends else len(self.backends)


def parse_operand(text: str) -> Operand:
    """"looplab:epoll", "looplab" or an implementation id, each maybe followed
    by "@<workload>"."""
    text, at, workload = text.strip().partition("@")
    kind, _, backend = text.partition(":")
    if at and (not workload or "@" in workload or workload != workload.strip()):
        raise PolicyError(f"bad operand {text!r}@{workload!r}: @ is followed by a workload")
    if kind == "looplab":
        return Operand("looplab", backend, workload)
    if not text or ":" in text:
        raise PolicyError(f"bad operand {text!r}: an implementation id or looplab[:<backend>]")
    return Operand("impl", text, workload)


def parse_ratio(text: str) -> tuple[Operand, Operand]:
    """"A / B" into its two operands."""
    numerator, denominator = text.split("/")
    return parse_operand(numerator), parse_operand(denominator)


def parse_goal(text: str) -> tuple[str, float, tuple[Operand, Operand] | None]:
    """(op, limit, reference) of "<= 1.1" or of "same direction as A / B"."""
    if text.startswith(SAME_DIRECTION):
        return SAME_DIRECTION, 1.0, parse_ratio(text[len(SAME_DIRECTION):])
    op, limit = text.split()
    return op, float(limit), None


def parse_check(entry: dict[str, Any], check: dict[str, Any], workload: str) -> TargetSpec:
    """One check of a [[targets]] entry, on one of its workloads."""
    try:
        numerator, denominator = parse_ratio(check["ratio"])
        op, limit, reference = parse_goal(check["goal"])
        spec = TargetSpec(f"{workload}:{check['name']}", int(entry["stage"]), workload,
                          check.get("measure", entry.get("measure", "wall")),
                          numerator, denominator, op, limit, reference)
    except (KeyError, ValueError, AttributeError) as error:
        raise PolicyError(f"target {check!r} of stage {entry.get('stage')}: {error}") from None
    if spec.op not in OPERATORS + (SAME_DIRECTION,) or spec.measure not in MEASURES:
        raise PolicyError(f"target {spec.id}: op must be one of {OPERATORS} or "
                          f"{SAME_DIRECTION!r}, measure one of {MEASURES}")
    return spec


def parse_targets(entries: list[dict[str, Any]]) -> tuple[TargetSpec, ...]:
    """Each entry's checks, once per workload, workload by workload."""
    return tuple(parse_check(entry, check, workload)
                 for entry in entries for workload in entry.get("workloads", [])
                 for check in entry.get("checks", []))


def parse_async_tree(table: dict[str, Any]) -> AsyncTree:
    """[async_tree]: its flavours are [suffix, name] pairs."""
    flavours = tuple(tuple(flavour) for flavour in table["flavours"])
    if any(len(flavour) != 2 for flavour in flavours):
        raise PolicyError(f"targets.toml: [async_tree] flavours {table['flavours']!r}: "
                          "each a [suffix, name] pair")
    return AsyncTree(table["prefix"], tuple(table["variants"]), flavours)


def parse(text: str) -> Policy:
    """The policy a targets.toml text describes."""
    try:
        data = tomllib.loads(text)
        pollers, echo, coro, tree = data["pollers"], data["echo"], data["coro_echo"], data["async_tree"]
        return Policy(
            backends=tuple(pollers["backends"]),
            first_poller_stage=int(pollers["first_stage"]),
            epoll_baseline_groups=frozenset(pollers["epoll_baseline_groups"]),
            echo_server=echo["server"],
            echo_first_stage=int(echo["first_stage"]),
            echo_backends=tuple(echo["backends"]),
            coro_echo=CoroEcho(coro["server"], int(coro["first_stage"]), coro["backend"],
                               coro["prefix"], tuple(int(c) for c in coro["connections"]),
                               coro["name"], coro["label"], coro["twin"]),
            async_tree=parse_async_tree(tree),
            targets=parse_targets(data.get("targets", [])))
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise PolicyError(f"targets.toml: {type(error).__name__}: {error}") from None


@functools.cache
def load(path: Path = POLICY_FILE) -> Policy:
    """The policy in `path` (default: targets.toml next to this module), read once."""
    return parse(path.read_text())
