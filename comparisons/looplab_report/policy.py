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
MEASURES = ("wall", "server_cpu", "server_user_cpu")


class PolicyError(ValueError):
    """targets.toml says something the report cannot use."""


@dataclass(frozen=True)
class Operand:
    """One side of a target's ratio: ("looplab", backend) is the latest looplab
    stage that has the rows, on that backend ("" for the stage's own row), and
    ("impl", id) one implementation."""

    kind: str
    name: str


@dataclass(frozen=True)
class TargetSpec:
    """A ratio of two implementations on one workload, with the bound it should meet."""

    id: str
    stage: int               # the stage that set the goal: looplab operands are from it on
    workload: str
    measure: str             # "wall", "server_cpu" or "server_user_cpu"
    numerator: Operand
    denominator: Operand
    op: str                  # one of OPERATORS
    limit: float


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
class Policy:
    """Everything targets.toml says."""

    backends: tuple[str, ...]
    first_poller_stage: int
    epoll_baseline_groups: frozenset[str]
    echo_server: str
    echo_first_stage: int
    echo_backends: tuple[str, ...]
    coro_echo: CoroEcho
    targets: tuple[TargetSpec, ...]

    def backend_rank(self, backend: str | None) -> int:
        """A backend's place in table order (unknown ones last)."""
        return self.backends.index(backend) if backend in self.backends else len(self.backends)


def parse_operand(text: str) -> Operand:
    """"looplab:epoll", "looplab" or an implementation id."""
    kind, _, backend = text.strip().partition(":")
    if kind == "looplab":
        return Operand("looplab", backend)
    if not text.strip() or ":" in text:
        raise PolicyError(f"bad operand {text!r}: an implementation id or looplab[:<backend>]")
    return Operand("impl", text.strip())


def parse_check(entry: dict[str, Any], check: dict[str, Any], workload: str) -> TargetSpec:
    """One check of a [[targets]] entry, on one of its workloads."""
    try:
        numerator, denominator = check["ratio"].split("/")
        op, limit = check["goal"].split()
        spec = TargetSpec(f"{workload}:{check['name']}", int(entry["stage"]), workload,
                          check.get("measure", entry.get("measure", "wall")),
                          parse_operand(numerator), parse_operand(denominator), op, float(limit))
    except (KeyError, ValueError, AttributeError) as error:
        raise PolicyError(f"target {check!r} of stage {entry.get('stage')}: {error}") from None
    if spec.op not in OPERATORS or spec.measure not in MEASURES:
        raise PolicyError(f"target {spec.id}: op must be one of {OPERATORS}, "
                          f"measure one of {MEASURES}")
    return spec


def parse_targets(entries: list[dict[str, Any]]) -> tuple[TargetSpec, ...]:
    """Each entry's checks, once per workload, workload by workload."""
    return tuple(parse_check(entry, check, workload)
                 for entry in entries for workload in entry.get("workloads", [])
                 for check in entry.get("checks", []))


def parse(text: str) -> Policy:
    """The policy a targets.toml text describes."""
    try:
        data = tomllib.loads(text)
        pollers, echo, coro = data["pollers"], data["echo"], data["coro_echo"]
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
            targets=parse_targets(data.get("targets", [])))
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise PolicyError(f"targets.toml: {type(error).__name__}: {error}") from None


@functools.cache
def load(path: Path = POLICY_FILE) -> Policy:
    """The policy in `path` (default: targets.toml next to this module), read once."""
    return parse(path.read_text())
