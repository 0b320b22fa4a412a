#!/usr/bin/env python3
"""difftest.py: looplab's differential tester.

Generates random loop programs from a seed, runs each one on looplab (the
interpreter tests/differential/interpreter.cpp, built as differential_sNN) and
on CPython asyncio (its twin comparisons/differential/interpreter.py, on a
virtual clock), and compares the two traces line by line. When they differ, it
shrinks the program to a minimal one that still shows the difference, writes
it to build/differential/ with both traces and a scenario twin ready to save,
and prints the command that reproduces it. tests/differential/README.md
describes the program format.

    difftest.py --binary build/dev/bin/differential_s02 --stage 2 [--count 2000] [--seed 1]
    difftest.py --stage 2 --count 3 --print          # show the programs, run nothing
    difftest.py --binary ... --stage 2 --replay build/differential/s02-seed1-n17.program

Exit status: 0 if every trace matched, 1 on a mismatch, 2 if the tester itself
could not run (bad arguments, no CPython 3.12+, an interpreter that fails).
Standard library only.
"""
from __future__ import annotations

import argparse
import difflib
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
TWIN = ROOT / "comparisons" / "differential" / "interpreter.py"
sys.path.insert(0, str(ROOT / "comparisons"))
import pythons  # noqa: E402

DELIMITER = "%%"
BATCH_SIZE = 2000  # programs per interpreter process, and per window of a long run
BATCH_TIMEOUT_S = 60  # for one batch; a program that hangs an interpreter is reported as such
# After this many programs crashed (or hung) an interpreter, the rest of the batch
# is not run: one crash per program would cost a process start each.
MAX_CRASHES = 10
# Where the scenario twin of a shrunk program belongs (tests/scenarios/<group>/):
# "io" if it uses stage 03's socketpairs, else "timers" (scenario_group()).
IO_KINDS = ("pair", "reader", "write", "remove_reader")

# ----------------------------------------------------------------- programs ----


class OpSpec:
    """What the program format says about one kind of op."""

    def __init__(self, operands: int, has_body: bool, since: int, implemented: bool = True):
        self.operands = operands  # how many integers follow the kind
        self.has_body = has_body  # a scheduled callback: indented ops follow
        self.since = since  # the first stage whose loop has it
        self.implemented = implemented  # by both interpreters and the generator


# Keep in step with tests/differential/interpreter.cpp and comparisons/differential/interpreter.py.
OP_SPECS: Dict[str, OpSpec] = {
    "soon": OpSpec(1, True, 2),  # soon ID          call_soon
    "later": OpSpec(2, True, 2),  # later ID DELAY   call_later, milliseconds
    "at": OpSpec(2, True, 2),  # at ID WHEN       call_at, milliseconds of loop time
    "cancel": OpSpec(1, False, 2),  # cancel ID        the handle of callback ID, if scheduled
    "stop": OpSpec(0, False, 2),  # stop             loop.stop()
    "raise": OpSpec(0, False, 2),  # raise            the running callback throws
    # Stage 03: readers on socketpairs (README.md, "Stage 03").
    "pair": OpSpec(1, False, 3),  # pair P           socketpair P, non-blocking
    "reader": OpSpec(2, True, 3),  # reader ID P      add_reader on P's left end: drain, then body
    "write": OpSpec(2, False, 3),  # write P BYTES    BYTES bytes into P's right end
    "remove_reader": OpSpec(1, False, 3),  # remove_reader P   prints its result
    # Stage 05: futures (README.md, "Stages 05 and 06").
    "future": OpSpec(1, False, 5),  # future F         loop.create_future() (replaces an older F)
    "resolve": OpSpec(2, False, 5),  # resolve F VALUE  F.set_result(VALUE)
    "fail": OpSpec(1, False, 5),  # fail F           F.set_exception(ValueError("fF"))
    "cancel_future": OpSpec(2, False, 5),  # cancel_future F MSG   F.cancel(), MSG 0: no message
    "done_cb": OpSpec(2, True, 5),  # done_cb ID F     F.add_done_callback(callback ID)
    "remove_cb": OpSpec(2, False, 5),  # remove_cb ID F   F.remove_done_callback(callback ID)
    "run_until": OpSpec(1, False, 5),  # run_until F      top level: loop.run_until_complete(F)
    # Stage 06: tasks. The awaits and catch_cancel go in a task's body only.
    "task": OpSpec(1, True, 6),  # task T           loop.create_task(coroutine: T's body)
    "sleep": OpSpec(1, False, 6),  # sleep MS         await asyncio.sleep(MS)
    "await_future": OpSpec(1, False, 6),  # await_future F   await F
    "await_task": OpSpec(1, False, 6),  # await_task T     await T
    "catch_cancel": OpSpec(0, False, 6),  # catch_cancel     from here on, swallow CancelledError
    "cancel_task": OpSpec(2, False, 6),  # cancel_task T MSG   T.cancel(), MSG 0: no message
    "cancelling": OpSpec(1, False, 6),  # cancelling T     T.cancelling()
    "uncancel": OpSpec(1, False, 6),  # uncancel T       T.uncancel()
    "current": OpSpec(0, False, 6),  # current          asyncio.current_task()
    "run_until_task": OpSpec(1, False, 6),  # run_until_task T   top level: run_until_complete(T)
    "wait_for": OpSpec(2, False, 6),  # wait_for F MS    await asyncio.wait_for(F, MS)
    "shield": OpSpec(1, False, 6),  # shield F         await asyncio.shield(F)
    "timeout": OpSpec(2, True, 6),  # timeout ID MS    async with asyncio.timeout(MS): its body
    "wait_first": OpSpec(2, False, 6),  # wait_first F MS  await asyncio.wait([F], timeout=MS, FIRST_COMPLETED)
    "set_task_result": OpSpec(1, False, 6),  # set_task_result T   T.set_result(0): RuntimeError
    # gather T F E   await asyncio.gather(T, F[, T]): E 1 return_exceptions=True, 2 T twice
    "gather": OpSpec(3, False, 6),
    # Locks, semaphores and events (README.md, "Locks and events"); acquire
    # and wait_event in task bodies only.
    "lock": OpSpec(1, False, 6),  # lock S           asyncio.Lock() as S (replaces an older S)
    "semaphore": OpSpec(2, False, 6),  # semaphore S N    asyncio.Semaphore(N) as S
    "acquire": OpSpec(1, False, 6),  # acquire S        await S.acquire()
    "release": OpSpec(1, False, 6),  # release S        S.release(), prints done or the error
    "event": OpSpec(1, False, 6),  # event E          asyncio.Event() as E
    "wait_event": OpSpec(1, False, 6),  # wait_event E     await E.wait()
    "set_event": OpSpec(1, False, 6),  # set_event E      E.set()
    "clear_event": OpSpec(1, False, 6),  # clear_event E    E.clear()
    # Stage 07: eager tasks. E 1: asyncio.eager_task_factory; 0: the default (lazy).
    "task_factory": OpSpec(1, False, 7),  # task_factory E   loop.set_task_factory(...)
    # Stage 07 also has queues (README.md, "Queues"); put, get and join in task bodies only.
    "queue": OpSpec(2, False, 7),  # queue Q N        asyncio.Queue(maxsize=N) (replaces an older Q)
    "put": OpSpec(2, False, 7),  # put Q V          await Q.put(V)
    "get": OpSpec(1, False, 7),  # get Q            await Q.get()
    "put_nowait": OpSpec(2, False, 7),  # put_nowait Q V   Q.put_nowait(V)
    "get_nowait": OpSpec(1, False, 7),  # get_nowait Q     Q.get_nowait()
    "task_done": OpSpec(1, False, 7),  # task_done Q      Q.task_done()
    "join": OpSpec(1, False, 7),  # join Q           await Q.join()
    # Stage 08: task groups, in task bodies only.
    "group": OpSpec(1, True, 8),  # group ID         async with asyncio.TaskGroup() as group: body
    "group_task": OpSpec(1, True, 8),  # group_task T  in a group's body: group.create_task(T's body)
    # Stage 09: another thread posts a callback, and is joined before the next op.
    "post": OpSpec(1, True, 9),  # post ID          call_soon_threadsafe, from a thread
}
SCHEDULING = ("soon", "later", "at", "post")
# The ops of stages 05 to 07: their programs get another sentinel (latest_deadline())
# and no scenario twins.
FUTURE_KINDS = frozenset(kind for kind, spec in OP_SPECS.items() if spec.since >= 5)
# Ops whose first operand names a callback or a task (a done callback's id, a
# task's id): renumbered() keeps them in step with the ops that make them.
REFERS_TO_ID = ("cancel", "remove_cb", "await_task", "cancel_task", "cancelling", "uncancel",
                "run_until_task", "set_task_result", "gather")
# What a task's body awaits (each prints what it got).
AWAITS = ("sleep", "await_future", "await_task", "wait_for", "shield", "timeout", "wait_first",
          "gather", "put", "get", "join", "acquire", "wait_event")
# The ops on a queue: only in a program that made queues.
QUEUE_KINDS = ("put", "get", "put_nowait", "get_nowait", "task_done", "join")
# The ops on a lock or semaphore, and on an event: only in a program that made one.
SYNC_KINDS = ("acquire", "release")
EVENT_KINDS = ("wait_event", "set_event", "clear_event")


class Op:
    """One op. Treated as immutable: the shrinker shares unchanged subtrees."""

    __slots__ = ("kind", "args", "body")

    def __init__(self, kind: str, args: Sequence[int] = (), body: Sequence["Op"] = ()):
        self.kind = kind
        self.args = tuple(args)
        self.body = tuple(body)

    @property
    def id(self) -> int:
        return self.args[0]


Program = Tuple[Op, ...]


def format_program(ops: Sequence[Op], indent: int = 0) -> str:
    """The text of a program (every line ends with a newline)."""
    out = []
    for op in ops:
        out.append(" " * indent + " ".join([op.kind, *map(str, op.args)]) + "\n")
        out.append(format_program(op.body, indent + 2))
    return "".join(out)


class ProgramError(Exception):
    pass


def parse_program(text: str) -> Program:
    """The inverse of format_program; comments (#) and blank lines are skipped."""
    top: List[Op] = []
    # (indent, kind, args, body) of the ops whose bodies are still open
    stack: List[Tuple[int, Optional[str], Tuple[int, ...], List[Op]]] = [(-1, None, (), top)]

    def close_last():
        _, kind, args, body = stack.pop()
        stack[-1][3].append(Op(kind, args, body))

    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0].rstrip()
        if not code.strip():
            continue
        indent = len(code) - len(code.lstrip(" "))
        kind, *words = code.split()
        spec = OP_SPECS.get(kind)
        if spec is None:
            raise ProgramError(f"line {number}: unknown op {kind!r}")
        try:
            args = tuple(int(word) for word in words)
        except ValueError:
            raise ProgramError(f"line {number}: operands must be integers") from None
        if len(args) != spec.operands:
            raise ProgramError(f"line {number}: {kind} takes {spec.operands} operand(s)")
        while indent <= stack[-1][0]:
            close_last()
        if indent != stack[-1][0] + 2 and not (stack[-1][0] == -1 and indent == 0):
            raise ProgramError(f"line {number}: bad indentation")
        if spec.has_body:
            stack.append((indent, kind, args, []))
        else:
            stack[-1][3].append(Op(kind, args))
    while len(stack) > 1:
        close_last()
    return tuple(top)


def split_programs(text: str) -> List[str]:
    """The programs of a file that holds several, separated by %% lines."""
    programs, current = [], []
    for line in text.splitlines(keepends=True):
        if line.strip() == DELIMITER:
            programs.append("".join(current))
            current = []
        else:
            current.append(line)
    if "".join(current).strip():
        programs.append("".join(current))
    return programs


def walk(ops: Sequence[Op]):
    for op in ops:
        yield op
        yield from walk(op.body)


def size(ops: Sequence[Op]) -> int:
    return sum(1 for _ in walk(ops))


# ---------------------------------------------------------------- generator ----


def kinds_for(stage: int) -> List[str]:
    """The op kinds a program for `stage` may use."""
    return [kind for kind, spec in OP_SPECS.items() if spec.since <= stage and spec.implemented]


class Generator:
    """Random programs for one stage. Program `index` of seed `seed` is always the
    same program: each has its own random.Random, seeded from both numbers."""

    # How often each kind is picked where any op may go (raise is added separately:
    # it ends a callback's body).
    WEIGHTS = {"soon": 20, "later": 30, "at": 20, "cancel": 20, "stop": 5,
               "reader": 8, "write": 25, "remove_reader": 4,  # these three: I/O programs only
               # future programs only (stage 05 on; the last five from stage 06)
               "future": 2, "resolve": 12, "fail": 5, "cancel_future": 6, "done_cb": 12,
               "remove_cb": 4, "task": 16, "cancel_task": 10, "cancelling": 3, "uncancel": 4,
               "current": 2, "set_task_result": 2,
               "task_factory": 3,  # stage 07 on
               "put_nowait": 6, "get_nowait": 6, "task_done": 3,  # stage 07 on, with queues
               "release": 5, "set_event": 4, "clear_event": 2,  # with locks, with events
               "post": 15}  # stage 09 on

    def __init__(self, stage: int, seed: int, index: int):
        self.rng = random.Random(f"looplab-difftest:{seed}:{index}")
        self.kinds = kinds_for(stage)
        self.next_id = 1
        self.ids: List[int] = []  # callbacks scheduled so far, in program order
        self.pair: Optional[int] = None  # an I/O program's one socketpair
        self.futures: List[int] = []  # a future program's futures: F 1, 2, ...
        self.done_callbacks: List[Tuple[int, int]] = []  # (ID, F) of the done_cb ops so far
        self.tasks: List[int] = []  # the task ops so far
        # Tasks whose op is complete, body and all (post-order): a task awaits
        # only these, so no two tasks ever await each other (asyncio would
        # recurse for ever cancelling them: Task.cancel cancels what it awaits).
        self.closed_tasks: List[int] = []
        self.awaits_itself: Set[int] = set()  # tasks with an await_task on themselves
        self.catching: Set[int] = set()  # tasks with a catch_cancel
        self.queues: List[int] = []  # a future program's queues, from stage 07: Q 1, 2, ...
        self.syncs: List[int] = []  # its locks and semaphores: S 1, 2, ...
        self.events: List[int] = []  # its events: E 1, 2, ...

    def program(self) -> Program:
        rng = self.rng
        shape = rng.choices(("small", "ties", "heap"), weights=(45, 35, 20))[0]
        if shape == "heap" and {"later", "at", "cancel"} <= set(self.kinds):
            return self.heap_program()
        if shape == "ties":
            # Few distinct times, so that deadlines coincide all the time.
            self.palette = rng.sample(range(0, 11), rng.randint(1, 3))
            self.tie_bias, self.horizon = 0.9, 10
            self.width, self.max_depth, self.nest = 6, rng.randint(1, 3), 0.45
        else:
            self.palette = rng.sample(range(0, 41), rng.randint(2, 4))
            self.tie_bias, self.horizon = 0.5, 40
            self.width, self.max_depth, self.nest = 4, 3, 0.5
        if "pair" in self.kinds and rng.random() < 0.4:
            return self.io_program()
        if "future" in self.kinds and rng.random() < 0.75:
            return self.future_program()
        return tuple(self.ops(depth=0, owner=None))

    def future_program(self) -> Program:
        """Timers, one to three futures made first, and from stage 06 tasks
        (one or two at the top level most of the time); sometimes a run_until
        (or run_until_task) among the top-level ops."""
        rng = self.rng
        self.futures = list(range(1, rng.randint(1, 3) + 1))
        made = [Op("future", (f,)) for f in self.futures]
        # From stage 07, a third of them make one or two queues first, most
        # of them bounded (maxsize 1 or 2), so that puts wait too.
        if "queue" in self.kinds and rng.random() < 0.35:
            self.queues = list(range(1, rng.randint(1, 2) + 1))
            made += [Op("queue", (q, rng.choice((0, 1, 1, 2)))) for q in self.queues]
        # From stage 06, locks or semaphores, and events: made first too, so
        # that any task body may acquire and wait, any callback release, set
        # and clear; each also gets traffic of its own (below).
        if "lock" in self.kinds and rng.random() < 0.3:
            self.syncs = [1, 2][:rng.randint(1, 2)]
            made += [Op("lock", (s,)) if rng.random() < 0.6 else
                     Op("semaphore", (s, rng.randint(1, 2))) for s in self.syncs]
        if "event" in self.kinds and rng.random() < 0.2:
            self.events = [1]
            made.append(Op("event", (1,)))
        ops = self.ops(depth=0, owner=None)
        # From stage 07, half of them make every task eager from the start
        # (task_factory ops elsewhere switch it on and off as the program runs).
        if "task_factory" in self.kinds and rng.random() < 0.5:
            made.append(Op("task_factory", (1,)))
        if "task" in self.kinds and rng.random() < 0.7:
            for _ in range(rng.randint(1, 2)):
                position = rng.randint(0, len(ops))  # drawn first, as before stage 07
                task = self.task(depth=0, in_reader=False)
                # A task made before the loop runs starts lazily, eager or not:
                # from stage 07, half of them are made by a callback instead.
                if "task_factory" in self.kinds and rng.random() < 0.5:
                    task = self.scheduled("soon", lambda _id, made=task: [made])
                ops.insert(position, task)
        if self.queues and rng.random() < 0.5:
            ops += self.queue_traffic()
        if self.syncs:
            ops += self.sync_traffic()
        if self.events:
            ops += self.event_traffic()
        if rng.random() < 0.25:
            position = rng.randint(0, len(ops))
            tasks = [op.id for op in ops[:position] if op.kind == "task"]
            if tasks and rng.random() < 0.6:
                ops.insert(position, Op("run_until_task", (rng.choice(tasks),)))
            else:
                ops.insert(position, Op("run_until", (self.future_ref(),)))
        return tuple(made + ops)

    def queue_traffic(self) -> List[Op]:
        """Tasks waiting on one queue (getters, or putters when it is full),
        and callbacks that put, get and cancel them in the same turns: the
        hand-offs between a queue's waiters (one woken, then cancelled before
        it resumes, passes the item or the room on) need several waiters and
        a put or get and a cancel together, which random ops rarely line up."""
        rng = self.rng
        queue = rng.choice(self.queues)
        workers = []
        putting = rng.random() < 0.4  # a producers' program: putters wait on a full queue
        for _ in range(rng.randint(2, 3)):
            body = [Op("put", (queue, rng.randint(0, 99))) if putting else Op("get", (queue,))
                    for _ in range(rng.randint(1, 3))]
            workers.append(self.traffic_task(body))
        ids = [op.id for op in workers]

        def feed(_id: int) -> List[Op]:
            body = []
            for _ in range(rng.randint(1, 4)):
                roll = rng.random()
                if roll < 0.5:  # what the workers wait for
                    body.append(Op("get_nowait", (queue,)) if putting else
                                Op("put_nowait", (queue, rng.randint(0, 99))))
                elif roll < 0.85:
                    body.append(Op("cancel_task", (rng.choice(ids), self.message())))
                else:
                    body.append(Op("put_nowait", (queue, rng.randint(0, 99))) if putting else
                                Op("get_nowait", (queue,)))
            return body

        feeders = [self.scheduled(rng.choice(("soon", "later", "later")), feed)
                   for _ in range(rng.randint(1, 3))]
        return workers + feeders

    def traffic_task(self, body: List[Op]) -> Op:
        """A task op with this body, made at the top level; others may await it."""
        self.next_id += 1  # an id, but no handle for cancel to target
        id_ = self.next_id - 1
        self.tasks.append(id_)
        if self.rng.random() < 0.3:
            body = [Op("catch_cancel")] + body
        self.closed_tasks.append(id_)
        return Op("task", (id_,), body)

    def sync_traffic(self) -> List[Op]:
        """Two to four tasks taking turns in one lock's (or semaphore's)
        critical section, acquire, sleep, release, and a callback that
        cancels them and releases: a waiter woken by a release, then
        cancelled before it resumes, must wake the next one."""
        rng = self.rng
        lock = rng.choice(self.syncs)
        tasks = []
        for _ in range(rng.randint(2, 4)):
            body = []
            for _ in range(rng.randint(1, 2)):
                body += [Op("acquire", (lock,)), Op("sleep", (rng.choice((0, 0, 1, 2)),)),
                         Op("release", (lock,))]
            tasks.append(self.traffic_task(body))
        ids = [op.id for op in tasks]

        def meddle(_id: int) -> List[Op]:
            return [Op("cancel_task", (rng.choice(ids), self.message())) if rng.random() < 0.7
                    else Op("release", (lock,)) for _ in range(rng.randint(1, 3))]

        return tasks + [self.scheduled(rng.choice(("soon", "later")), meddle)
                        for _ in range(rng.randint(1, 2))]

    def event_traffic(self) -> List[Op]:
        """Tasks waiting for one event, callbacks that set, clear and cancel."""
        rng = self.rng
        tasks = [self.traffic_task([Op("wait_event", (1,))] * rng.randint(1, 2))
                 for _ in range(rng.randint(1, 3))]
        ids = [op.id for op in tasks]

        def poke(_id: int) -> List[Op]:
            return [rng.choice((Op("set_event", (1,)), Op("clear_event", (1,)),
                                Op("cancel_task", (rng.choice(ids), self.message()))))
                    for _ in range(rng.randint(1, 3))]

        return tasks + [self.scheduled(rng.choice(("soon", "later")), poke)
                        for _ in range(rng.randint(1, 2))]

    def future_ref(self) -> int:
        """A future of the program; now and then one never made (ops on it do nothing)."""
        if self.rng.random() < 0.04:
            return len(self.futures) + 1
        return self.rng.choice(self.futures)

    def message(self) -> int:
        """The MSG of cancel_future and cancel_task: 0 (no message) most of the time."""
        return 0 if self.rng.random() < 0.6 else self.rng.randint(1, 9)

    def task(self, depth: int, in_reader: bool, kind: str = "task", fails: float = 0.1) -> Op:
        """task T (or group_task T): a body of awaits and other ops
        (task_block()), sometimes a catch_cancel first, sometimes (`fails`) a
        raise at the end."""
        rng = self.rng
        self.next_id += 1  # an id, but no handle for cancel to target
        id_ = self.next_id - 1
        self.tasks.append(id_)
        body: List[Op] = []
        if rng.random() < 0.2:
            body.append(Op("catch_cancel"))
            self.catching.add(id_)
        body += self.task_block(depth, id_, in_reader)
        if rng.random() < fails:
            body.append(Op("raise"))
        # A task that awaits itself does so once, and is awaited by no other:
        # CPython's C Task leaves the flag _asyncio_future_blocking set on it,
        # so until it ends, any other `await` on it raises RuntimeError("await
        # wasn't used with future") at once, without a turn (the pure-Python
        # Task, and looplab, suspend and wait for it, or throw "Task cannot
        # await on itself" a turn later).
        if id_ not in self.awaits_itself:
            self.closed_tasks.append(id_)
        return Op(kind, (id_,), body)

    def task_block(self, depth: int, id_: int, in_reader: bool) -> List[Op]:
        """The body of task `id_`, or of a timeout region in it: awaits (sleep,
        await_future, wait_for, shield, await_task, timeout regions),
        catch_cancel, the task cancelling itself, and other ops."""
        rng = self.rng
        body: List[Op] = []
        for _ in range(rng.randint(0, self.width + 1)):
            # From stage 08, task group regions (no draw before: earlier
            # stages' programs stay the same).
            if "group" in self.kinds and depth < self.max_depth and rng.random() < 0.12:
                body.append(self.group(depth, id_, in_reader))
                continue
            # gather() of a task and a future (no draw before it either).
            if "gather" in self.kinds and self.closed_tasks and rng.random() < 0.06:
                body.append(Op("gather", (rng.choice(self.closed_tasks), self.future_ref(),
                                          rng.randint(0, 3))))
                continue
            # A lock's and an event's awaits, in a program with them.
            if self.syncs and rng.random() < 0.1:
                body.append(Op("acquire", (rng.choice(self.syncs),)))
                continue
            if self.events and rng.random() < 0.08:
                body.append(Op("wait_event", (rng.choice(self.events),)))
                continue
            # A queue's awaits, in a program with queues (no draw without).
            if self.queues and rng.random() < 0.2:
                queue = rng.choice(self.queues)
                kind = rng.choices(("put", "get", "join"), (5, 5, 1))[0]
                body.append(Op(kind, (queue, rng.randint(0, 99)) if kind == "put" else (queue,)))
                continue
            roll = rng.random()
            if roll < 0.25:
                body.append(Op("sleep", (self.delay(),)))
            elif roll < 0.40:
                body.append(Op("await_future", (self.future_ref(),)))
            elif roll < 0.46:
                body.append(Op("wait_for", (self.future_ref(), self.delay())))
            elif roll < 0.50:
                body.append(Op("shield", (self.future_ref(),)))
            elif roll < 0.53:
                body.append(Op("wait_first", (self.future_ref(), self.delay())))
            elif roll < 0.58 and depth < self.max_depth:
                self.next_id += 1  # the region's id: no handle, no task
                region = self.next_id - 1
                body.append(Op("timeout", (region, self.delay()),
                               self.task_block(depth + 1, id_, in_reader)))
            elif roll < 0.68 and self.closed_tasks:
                # now and then the task itself, once: asyncio's RuntimeError, thrown into it
                if id_ not in self.awaits_itself and rng.random() < 0.03:
                    target = id_
                    self.awaits_itself.add(id_)
                else:
                    target = rng.choice(self.closed_tasks)
                body.append(Op("await_task", (target,)))
            elif roll < 0.72:
                body.append(Op("catch_cancel"))
                self.catching.add(id_)
            elif roll < 0.77:  # the task cancels itself
                body.append(Op("cancel_task", (id_, self.message())))
            else:
                allowed, weights = self.choices(id_, in_reader)
                op = self.one(rng.choices(allowed, weights)[0], depth + 1, id_, in_reader)
                if op is not None:
                    body.append(op)
            # A task that swallows CancelledError looks at its counter after an
            # await, and takes a cancellation back now and then.
            if (body and body[-1].kind in AWAITS and id_ in self.catching and
                    rng.random() < 0.4):
                body.append(Op(rng.choice(("cancelling", "uncancel")), (id_,)))
        return body

    def group(self, depth: int, id_: int, in_reader: bool) -> Op:
        """group ID in task `id_`'s body: one to three group_task children, a
        third of which fail, among the task's own ops in the group's body."""
        rng = self.rng
        self.next_id += 1  # the region's id: no handle, no task
        region = self.next_id - 1
        body = [self.task(depth + 1, in_reader, kind="group_task", fails=0.35)
                for _ in range(rng.randint(1, 3))]
        for op in self.task_block(depth + 1, id_, in_reader):
            body.insert(rng.randint(0, len(body)), op)
        return Op("group", (region,), body)

    def io_program(self) -> Program:
        """Timers and ONE socketpair: looplab runs the readers of the descriptors
        ready in one turn in ascending descriptor order, asyncio in the order of
        a Python set, so a program never has two readable descriptors."""
        self.pair = self.rng.randint(1, 3)
        ops = [Op("pair", (self.pair,))]
        if self.rng.random() < 0.75:
            ops.append(self.reader(depth=0))
        return tuple(ops + self.ops(depth=0, owner=None))

    def reader(self, depth: int) -> Op:
        """reader ID P. It drains its socket each time it runs; its body (at any
        depth) never writes, so every run needs a write from outside: the
        program cannot spin at one time, and its sentinel ends it."""
        self.next_id += 1  # an id, but no handle for cancel to target
        id_ = self.next_id - 1
        nested = depth < self.max_depth and self.rng.random() < self.nest
        return Op("reader", (id_, self.pair), self.ops(depth + 1, id_, True) if nested else ())

    # -- pieces ------------------------------------------------------------

    def new_id(self) -> int:
        self.next_id += 1
        self.ids.append(self.next_id - 1)
        return self.next_id - 1

    def time_value(self) -> int:
        if self.rng.random() < self.tie_bias:
            return self.rng.choice(self.palette)
        return self.rng.randint(0, self.horizon)

    def delay(self) -> int:
        if self.rng.random() < 0.06:
            return -self.rng.randint(1, 5)  # legal: "due now"
        return self.time_value()

    def scheduled(self, kind: str, body_maker: Optional[Callable[[int], List[Op]]] = None) -> Op:
        """A soon/later/at op with a fresh id; its body comes from body_maker(id)."""
        id_ = self.new_id()
        args = {"soon": (id_,), "later": (id_, self.delay()), "at": (id_, self.time_value()),
                "post": (id_,)}[kind]
        return Op(kind, args, body_maker(id_) if body_maker else ())

    def cancel_target(self, owner: Optional[int]) -> int:
        if owner is not None and owner not in self.tasks and self.rng.random() < 0.15:
            return owner  # a callback cancelling its own, running handle
        return self.rng.choice(self.ids)

    def choices(self, owner: Optional[int], in_reader: bool) -> Tuple[List[str], List[int]]:
        """The kinds an op may have here, and their weights."""
        allowed = [kind for kind in self.WEIGHTS if kind in self.kinds and
                   (kind not in IO_KINDS or self.pair is not None) and
                   (kind not in FUTURE_KINDS or self.futures) and
                   (kind not in QUEUE_KINDS or self.queues) and
                   (kind not in SYNC_KINDS or self.syncs) and
                   (kind not in EVENT_KINDS or self.events) and
                   not (kind == "write" and in_reader)]
        weights = [self.WEIGHTS[kind] if (kind != "stop" or owner) else 2 for kind in allowed]
        return allowed, weights

    def ops(self, depth: int, owner: Optional[int], in_reader: bool = False) -> List[Op]:
        """The top level (owner None) or the body of callback `owner`; `in_reader`:
        inside a reader's body, at any depth (no writes there)."""
        rng = self.rng
        allowed, weights = self.choices(owner, in_reader)
        body: List[Op] = []
        for _ in range(rng.randint(1 if owner is None else 0, self.width)):
            op = self.one(rng.choices(allowed, weights)[0], depth, owner, in_reader)
            if op is not None:
                body.append(op)
        if owner is not None and "raise" in self.kinds and rng.random() < 0.1:
            body.append(Op("raise"))
        return body

    def one(self, kind: str, depth: int, owner: Optional[int], in_reader: bool) -> Optional[Op]:
        """One op of `kind` in the body of `owner` (None: the top level); None
        when there is nothing for it to act on."""
        rng = self.rng
        if kind in SCHEDULING:
            nested = depth < self.max_depth and rng.random() < self.nest
            return self.scheduled(
                kind, (lambda id_: self.ops(depth + 1, id_, in_reader)) if nested else None)
        if kind == "cancel" and self.ids:
            return Op("cancel", (self.cancel_target(owner),))
        if kind == "stop":
            return Op("stop")
        if kind == "reader":
            return self.reader(depth)
        if kind == "write":
            return Op("write", (self.pair, rng.randint(1, 64)))
        if kind == "remove_reader":
            return Op("remove_reader", (self.pair,))
        # Futures and tasks (future programs only).
        if kind == "future":
            return Op("future", (rng.choice(self.futures),))
        if kind == "resolve":
            return Op("resolve", (self.future_ref(), rng.randint(0, 99)))
        if kind == "fail":
            return Op("fail", (self.future_ref(),))
        if kind == "cancel_future":
            return Op("cancel_future", (self.future_ref(), self.message()))
        if kind == "done_cb":
            self.next_id += 1  # an id, but no handle for cancel to target
            id_, future = self.next_id - 1, self.future_ref()
            self.done_callbacks.append((id_, future))
            nested = depth < self.max_depth and rng.random() < self.nest
            body = self.ops(depth + 1, id_, in_reader) if nested else []
            return Op("done_cb", (id_, future), body)
        if kind == "remove_cb" and self.done_callbacks:
            id_, future = rng.choice(self.done_callbacks)
            return Op("remove_cb", (id_, future if rng.random() < 0.8 else self.future_ref()))
        if kind == "task" and depth < self.max_depth:
            return self.task(depth, in_reader)
        if kind in ("cancel_task", "cancelling", "uncancel", "set_task_result") and self.tasks:
            target = rng.choice(self.tasks)
            return Op(kind, (target, self.message()) if kind == "cancel_task" else (target,))
        if kind == "current":
            return Op("current")
        if kind == "task_factory":
            return Op("task_factory", (rng.randint(0, 1),))
        if kind == "put_nowait":
            return Op(kind, (rng.choice(self.queues), rng.randint(0, 99)))
        if kind in ("get_nowait", "task_done"):
            return Op(kind, (rng.choice(self.queues),))
        if kind == "release":
            return Op(kind, (rng.choice(self.syncs),))
        if kind in ("set_event", "clear_event"):
            return Op(kind, (rng.choice(self.events),))
        return None

    def heap_program(self) -> Program:
        """A heap at the edges of asyncio's compaction rule (more than 100 timers,
        more than half of them cancelled), many of them on the same deadline so
        that the order of ties shows how the heap was rebuilt. Three kinds:

        churn       90 to 180 timers; some cancelled before the loop runs, some
                    by each other as they fire (pending, already run, or self)
        boundary    a heap of 99 to 103 timers (the sentinel included) with
                    about half of them cancelled before the loop runs
        after_fire  a few timers due first cancel each other once they have
                    run (which must not count), then a boundary heap just
                    below the threshold
        """
        rng = self.rng
        kind = rng.choice(("churn", "boundary", "after_fire"))
        self.palette = rng.sample(range(1, 16), rng.randint(1, 4))
        self.tie_bias, self.horizon = 0.95, 15
        inside = rng.random() < 0.25  # scheduled by one callback instead of the top level
        owner = self.new_id() if inside else None
        ops: List[Op] = []
        if kind == "after_fire":
            early = self.reserve(rng.randint(3, 12))
            for id_ in early:
                body = [Op("cancel", (rng.choice(early),)) for _ in range(rng.randint(1, 3))]
                ops.append(Op(rng.choice(("later", "at")), (id_, 0), body))
        count = rng.randint(90, 180) if kind == "churn" else rng.randint(98, 102)
        block = self.reserve(count)
        for id_ in block:
            body: List[Op] = []
            roll = rng.random()
            if roll < (0.3 if kind == "churn" else 0.05):  # cancel a few others
                body += [Op("cancel", (rng.choice(block),)) for _ in range(rng.randint(1, 4))]
            elif roll < (0.4 if kind == "churn" else 0.1):  # keep the heap big as timers fire
                body += [self.scheduled(rng.choice(("later", "at")))
                         for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.02:
                body.append(Op("stop"))
            if rng.random() < 0.02:
                body.append(Op("raise"))
            timer = rng.choice(("later", "at"))
            value = self.delay() if timer == "later" else self.time_value()
            ops.append(Op(timer, (id_, value), body))
        heap = count + 1  # the block and the sentinel
        if kind == "churn":
            cancelled = int(count * rng.choice((0.0, 0.3, 0.5, 0.55, 0.7)))
        elif kind == "boundary":
            cancelled = heap // 2 + rng.randint(-1, 1)
        else:
            cancelled = heap // 2 - rng.randint(0, 2)
        ops += [Op("cancel", (t,)) for t in rng.sample(block, cancelled)]
        if rng.random() < 0.3:
            ops.insert(rng.randrange(len(ops) + 1), Op("stop"))
        if inside:
            return (Op("soon", (owner,), ops),)
        return tuple(ops)

    def reserve(self, count: int) -> List[int]:
        """`count` fresh ids in a row."""
        return [self.new_id() for _ in range(count)]


def generate(stage: int, seed: int, index: int) -> Program:
    return Generator(stage, seed, index).program()


# ------------------------------------------------------------------ running ----


class ToolError(Exception):
    """The tester cannot do its job (exit 2)."""


class Side:
    """One interpreter: a command that reads programs and prints traces."""

    def __init__(self, name: str, command: List[str]):
        self.name = name
        self.command = command
        self.seconds = 0.0

    def traces(self, programs: Sequence[str]) -> List[Optional[List[str]]]:
        """The trace of each program, in order. If the interpreter crashes or hangs
        on a program, that program's trace ends with a line "<looplab crashed ...>"
        and the rest run in a new process, up to MAX_CRASHES crashes; the
        programs after that are not run (None)."""
        traces: List[Optional[List[str]]] = []
        start = crashes = 0
        while start < len(programs):
            if crashes == MAX_CRASHES:
                return traces + [None] * (len(programs) - start)
            chunk = programs[start:start + BATCH_SIZE]
            payload = "".join(text + DELIMITER + "\n" for text in chunk)
            began = time.monotonic()
            try:
                result = subprocess.run(self.command, input=payload, capture_output=True,
                                        text=True, errors="replace", timeout=BATCH_TIMEOUT_S)
                stdout, stderr, status = result.stdout, result.stderr, result.returncode
            except subprocess.TimeoutExpired as timeout:
                stdout, stderr = _text(timeout.stdout), _text(timeout.stderr)
                status = f"timed out after {BATCH_TIMEOUT_S} s"
            except OSError as error:
                raise ToolError(f"cannot run {self.name} ({self.command[0]}): {error}") from None
            self.seconds += time.monotonic() - began
            lines = stdout.splitlines()
            done, current = [], []
            for line in lines:
                if line == DELIMITER:
                    done.append(current)
                    current = []
                else:
                    current.append(line)
            traces += done[:len(chunk)]
            start += min(len(done), len(chunk))
            if len(done) < len(chunk):  # died (or hung) on program `start`
                why = status if isinstance(status, str) else f"exit status {status}"
                tail = stderr.strip().splitlines()[-12:]
                traces.append(current + [f"<{self.name} crashed: {why}>"] + [f"<{t}>" for t in tail])
                start += 1
                crashes += 1
            elif status != 0:
                raise ToolError(f"{self.name} exited with {status} after all its programs:\n{stderr}")
        return traces


def _text(data) -> str:
    if isinstance(data, bytes):
        return data.decode(errors="replace")
    return data or ""


class Tester:
    """Runs programs on both sides and compares their traces."""

    def __init__(self, looplab: Side, cpython: Side):
        self.looplab = looplab
        self.cpython = cpython
        self.pool = ThreadPoolExecutor(max_workers=2)  # the two sides run side by side
        self.programs_run = 0

    def run(self, programs: Sequence[str]) -> Tuple[List[List[str]], List[List[str]]]:
        ours = self.pool.submit(self.looplab.traces, programs)
        theirs = self.pool.submit(self.cpython.traces, programs)
        ours_traces, cpython_traces = ours.result(), theirs.result()
        self.programs_run += len(programs)
        for trace in cpython_traces:
            if trace is None or (trace and trace[-1].startswith("<")):
                raise ToolError("the CPython twin failed, which is a bug in the tester:\n" +
                                "\n".join(trace or ["(not run)"]))
        return ours_traces, cpython_traces

    def differ(self, programs: Sequence[Program]) -> List[bool]:
        """Whether each program's traces differ; a program left unrun counts as not."""
        ours, theirs = self.run([format_program(p) for p in programs])
        return [a is not None and a != b for a, b in zip(ours, theirs)]


# ---------------------------------------------------------------- shrinking ----
#
# A reduction is a set of edits, {path of an op: the ops that replace it}: ()
# drops the op with its body, its body hoists the body into its place, a copy
# with a smaller time simplifies it. Edits at different paths combine into one
# reduction, which is how the shrinker takes big steps (see shrink()).

Path_ = Tuple[int, ...]
Edits = Dict[Path_, Tuple[Op, ...]]


def _paths(ops: Sequence[Op], prefix: Path_ = ()):
    for index, op in enumerate(ops):
        path = prefix + (index,)
        yield path, op
        yield from _paths(op.body, path)


def apply_edits(ops: Sequence[Op], edits: Edits, prefix: Path_ = ()) -> Program:
    out: List[Op] = []
    for index, op in enumerate(ops):
        path = prefix + (index,)
        if path in edits:
            out += edits[path]
        elif op.body:
            out.append(Op(op.kind, op.args, apply_edits(op.body, edits, path)))
        else:
            out.append(op)
    return tuple(out)


def structural_edits(ops: Program) -> List[Edits]:
    """Drop a run of siblings (halves, quarters, ...), drop one op or subtree,
    replace a callback by its body, or empty a body."""
    reductions: List[Edits] = []
    lists = [((), ops)] + [(path, op.body) for path, op in _paths(ops) if op.body]
    for parent, siblings in lists:
        chunk = len(siblings) // 2
        while chunk >= 2:
            for start in range(0, len(siblings), chunk):
                end = min(start + chunk, len(siblings))
                reductions.append({parent + (i,): () for i in range(start, end)})
            chunk //= 2
    for path, op in _paths(ops):
        reductions.append({path: ()})
        if op.body:
            reductions.append({path: op.body})
            reductions.append({path: (Op(op.kind, op.args),)})
    return reductions


def value_edits(ops: Program) -> List[Edits]:
    """One time made smaller (0, half, one less), or a timer made a call_soon."""
    reductions: List[Edits] = []
    for path, op in _paths(ops):
        if op.kind in ("sleep", "wait_for", "timeout", "wait_first"):
            value = op.args[-1]
            for smaller in sorted({0, value // 2, value - 1} - {value}, key=abs):
                if abs(smaller) < abs(value):
                    reductions.append({path: (Op(op.kind, op.args[:-1] + (smaller,), op.body),)})
            continue
        if op.kind == "post":  # posted from a thread: perhaps call_soon() does the same
            reductions.append({path: (Op("soon", (op.id,), op.body),)})
        if op.kind not in ("later", "at"):
            continue
        value = op.args[1]
        for smaller in sorted({0, value // 2, value - 1} - {value}, key=abs):
            if abs(smaller) < abs(value):
                reductions.append({path: (Op(op.kind, (op.id, smaller), op.body),)})
        reductions.append({path: (Op("soon", (op.id,), op.body),)})
    return reductions


def _nested(a: Path_, b: Path_) -> bool:
    return a[:len(b)] == b or b[:len(a)] == a


def combined(reductions: List[Edits]) -> Edits:
    """The union of `reductions`, skipping any that touch an op already edited
    (or one inside it)."""
    union: Edits = {}
    for edits in reductions:
        if not any(_nested(a, b) for a in edits for b in union):
            union.update(edits)
    return union


def cost(ops: Program) -> Tuple[int, int, int]:
    """Smaller is simpler: fewer ops, then smaller times, then fewer timers."""
    waits = ("later", "at", "sleep", "wait_for", "timeout", "wait_first")
    return (size(ops), sum(abs(op.args[-1]) for op in walk(ops) if op.kind in waits),
            sum(1 for op in walk(ops) if op.kind in ("later", "at")))


def renumbered(ops: Program) -> Program:
    """Callback and task ids 1, 2, 3, ... in program order (the ops that name
    them follow; futures keep their numbers)."""
    mapping: Dict[int, int] = {}
    for op in walk(ops):
        if OP_SPECS[op.kind].has_body:
            mapping[op.id] = len(mapping) + 1

    def redo(op: Op) -> Op:
        args = op.args
        if OP_SPECS[op.kind].has_body or op.kind in REFERS_TO_ID:
            args = (mapping.setdefault(op.id, len(mapping) + 1),) + args[1:]
        return Op(op.kind, args, tuple(redo(child) for child in op.body))

    return tuple(redo(op) for op in ops)


def shrink(program: Program, tester: Tester, say: Callable[[str], None]) -> Program:
    """Greedy delta debugging on the program tree, in batches (one batch costs two
    process starts, whatever its size). Each round tries every single reduction;
    if several still make the traces differ, it also tries them together (all of
    them, the first half, the first quarter, ...), and keeps the simplest
    program that still differs. Structural reductions come first; times are
    simplified once no op can go."""
    current = program
    rounds, runs_before = 0, tester.programs_run
    while True:
        rounds += 1
        best = None
        for make in (structural_edits, value_edits):
            singles, programs, seen = [], [], set()
            for edits in make(current):
                candidate = apply_edits(current, edits)
                text = format_program(candidate)
                if text not in seen:
                    seen.add(text)
                    singles.append(edits)
                    programs.append(candidate)
            verdicts = tester.differ(programs)
            failing = sorted((cost(p), i) for i, (p, bad) in enumerate(zip(programs, verdicts)) if bad)
            if not failing:
                continue
            candidates = [programs[i] for _, i in failing[:1]]
            order = [singles[i] for _, i in failing]
            k = len(order)
            combos = []
            while k >= 2:
                combos.append(apply_edits(current, combined(order[:k])))
                k //= 2
            candidates += [c for c, bad in zip(combos, tester.differ(combos)) if bad]
            best = min(candidates, key=cost)
            break
        if best is None or cost(best) >= cost(current):
            break
        if size(best) != size(current):
            say(f"  round {rounds}: {size(best)} ops")
        current = best
    neat = renumbered(current)
    if format_program(neat) != format_program(current) and tester.differ([neat])[0]:
        current = neat
    say(f"  shrunk in {rounds} rounds, {tester.programs_run - runs_before} programs tried")
    return current


# ---------------------------------------------------------------- scenarios ----


def latest_deadline(ops: Sequence[Op]) -> int:
    """As the interpreters compute it: the sentinel timer goes 1 ms after this."""
    return _latest(ops, 0, _latest(ops, 0, -1))


def _latest(ops: Sequence[Op], now: int, reader_at: int) -> int:
    """A reader runs when its pair has data: it counts as running at `reader_at`
    (-1: readers are left out, which gives the time of the last write)."""
    latest = now
    for op in ops:
        if op.kind in SCHEDULING or (op.kind == "reader" and reader_at >= 0):
            runs_at = {"soon": now, "post": now, "later": now + max(op.args[-1], 0),
                       "at": max(now, op.args[-1]), "reader": max(now, reader_at)}[op.kind]
            latest = max(latest, runs_at, _latest(op.body, runs_at, reader_at))
    return latest


def cpp_scenario(name: str, ops: Program, expected: List[str], origin: str) -> str:
    """A C++ scenario twin (tests/scenarios/timers/NAME.cpp) doing what `ops` does,
    with CPython's trace as its // expect: lines."""

    def emit(ops: Sequence[Op], indent: str, owner: Optional[int]) -> List[str]:
        out = []
        for op in ops:
            if op.kind in SCHEDULING:
                call = {"soon": "loop.call_soon(",
                        "later": f"loop.call_later({op.args[-1]}ms, ",
                        "at": f"loop.call_at(looplab::Clock::time_point({op.args[-1]}ms), "}
                keep = f"handles[{op.id}] = " if cancels else ""
                out.append(f"{indent}{keep}{call[op.kind]}[&] {{")
                out.append(f"{indent}  ran({op.id});")
                out += emit(op.body, indent + "  ", op.id)
                out.append(f"{indent}}});")
            elif op.kind == "cancel":
                out.append(f"{indent}cancel({op.id});")
            elif op.kind == "stop":
                out.append(f"{indent}loop.stop();")
            elif op.kind == "raise":
                out.append(f'{indent}throw looplab::ValueError("{owner}");')
                break
            elif op.kind == "pair":
                out.append(f"{indent}pairs.try_emplace({op.args[0]});")
            elif op.kind == "reader":
                out.append(f"{indent}if (pairs.contains({op.args[1]})) {{")
                out.append(f"{indent}  loop.add_reader(pairs.at({op.args[1]}).left(), [&] {{")
                out.append(f"{indent}    drain({op.id}, {op.args[1]});")
                out += emit(op.body, indent + "    ", op.id)
                out.append(f"{indent}  }});")
                out.append(f"{indent}}}")
            elif op.kind == "write":
                out.append(f"{indent}write({op.args[0]}, {op.args[1]});")
            elif op.kind == "remove_reader":
                out.append(f"{indent}remove_reader({op.args[0]});")
        return out

    kinds = {op.kind for op in walk(ops)}
    io = "pair" in kinds
    cancels = "cancel" in kinds
    body = "\n".join(emit(ops, "  ", None))
    expect = "\n".join(f"// expect: {line}" for line in expected)
    helpers = []
    if cancels:
        helpers.append("  std::map<int, looplab::Handle> handles;")
    helpers.append('''  auto now = [&] {
    auto since_zero = loop.time().time_since_epoch();
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(since_zero).count());
  };''')
    if kinds & set(SCHEDULING):
        helpers.append('  auto ran = [&](int id) { trace("run " + std::to_string(id) + " t=" + now()); };')
    if cancels:
        helpers.append('''  auto cancel = [&](int id) {
    if (auto found = handles.find(id); found != handles.end()) found->second.cancel();
  };''')
    if io:  # ops on a pair not made (yet) do nothing
        helpers.append('''  std::map<int, looplab::testing::SocketPair> pairs;
  auto drain = [&](int id, int p) {  // the reader's run: read all there is
    std::size_t n = 0;
    for (std::string got; !(got = looplab::testing::SocketPair::receive(pairs.at(p).left())).empty();) {
      n += got.size();
    }
    trace("read " + std::to_string(id) + " " + std::to_string(p) + " t=" + now() + " n=" +
          std::to_string(n));
  };
  auto write = [&](int p, std::size_t bytes) {
    if (pairs.contains(p)) looplab::testing::SocketPair::send(pairs.at(p).right(), std::string(bytes, 'x'));
  };
  auto remove_reader = [&](int p) {
    if (!pairs.contains(p)) return;
    bool removed = loop.remove_reader(pairs.at(p).left());
    trace("remove_reader " + std::to_string(p) + " -> " + (removed ? "True" : "False"));
  };''')
    helpers = "\n".join(helpers)
    return f"""\
// TODO: one line saying what this checks. Found by the differential tester
// ({origin}), shrunk; its program is in the comments at the end. One unit of time is 1 ms.
#include <chrono>
#include <exception>
#include <map>
#include <string>

{'#include "io/socket_pair.hpp"' + chr(10) if io else ""}#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;

LOOPLAB_SCENARIO({name}) {{
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
{helpers}
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {{
    try {{
      std::rethrow_exception(context.exception);
    }} catch (const std::exception& error) {{
      trace(std::string("handler ") + error.what());
    }}
  }});
  bool done = false;
  // The sentinel: after every other timer, it ends the scenario.
  loop.call_at(looplab::Clock::time_point({latest_deadline(ops) + 1}ms), [&] {{
    done = true;
    loop.stop();
  }});
{body}
  while (!done) {{
    loop.run_forever();
    trace("run_forever returned t=" + now());
  }}
{"  for (auto& [p, pair] : pairs) loop.remove_reader(pair.left());" + chr(10) if io else ""}  loop.close();
}}

{_program_comment(ops)}
{expect}
"""


def py_scenario(ops: Program, origin: str) -> str:
    """The Python twin (comparisons/scenarios/timers/NAME.py) of cpp_scenario()."""

    def emit(ops: Sequence[Op], indent: str, owner: Optional[int]) -> List[str]:
        out = []
        for op in ops:
            if op.kind in SCHEDULING:
                out.append("")
                out.append(f"{indent}def callback_{op.id}():")
                out.append(f"{indent}    ran({op.id})")
                out += emit(op.body, indent + "    ", op.id)
                call = {"soon": f"loop.call_soon(callback_{op.id})",
                        "later": f"loop.call_later({float(op.args[-1])}, callback_{op.id})",
                        "at": f"loop.call_at({float(op.args[-1])}, callback_{op.id})"}
                out.append(f"{indent}{'handles[%d] = ' % op.id if cancels else ''}{call[op.kind]}")
            elif op.kind == "cancel":
                out.append(f"{indent}cancel({op.id})")
            elif op.kind == "stop":
                out.append(f"{indent}loop.stop()")
            elif op.kind == "raise":
                out.append(f'{indent}raise ValueError("{owner}")')
                break
            elif op.kind == "pair":
                out.append(f"{indent}make_pair({op.args[0]})")
            elif op.kind == "reader":
                out.append("")
                out.append(f"{indent}def reader_{op.id}():")
                out.append(f"{indent}    drain({op.id}, {op.args[1]})")
                out += emit(op.body, indent + "    ", op.id)
                out.append(f"{indent}if {op.args[1]} in pairs:")
                out.append(f"{indent}    loop.add_reader(pairs[{op.args[1]}][0].fileno(), reader_{op.id})")
            elif op.kind == "write":
                out.append(f"{indent}write({op.args[0]}, {op.args[1]})")
            elif op.kind == "remove_reader":
                out.append(f"{indent}remove_reader({op.args[0]})")
        return out

    cancels = any(op.kind == "cancel" for op in walk(ops))
    io = any(op.kind == "pair" for op in walk(ops))
    body = "\n".join(emit(ops, "    ", None))
    handles = '''
    handles = {}

    def cancel(id_):
        if id_ in handles:
            handles[id_].cancel()
''' if cancels else ""
    pairs = '''
    pairs = {}  # ops on a pair not made (yet) do nothing

    def make_pair(p):
        if p not in pairs:
            pairs[p] = socket.socketpair()
            for end in pairs[p]:
                end.setblocking(False)

    def drain(id_, p):  # the reader's run: read all there is
        n = 0
        while True:
            try:
                got = pairs[p][0].recv(4096)
            except BlockingIOError:
                break
            n += len(got)
            if not got:
                break
        print(f"read {id_} {p} t={now()} n={n}")

    def write(p, count):
        if p in pairs:
            pairs[p][1].sendall(b"x" * count)

    def remove_reader(p):
        if p in pairs:
            print(f"remove_reader {p} -> {loop.remove_reader(pairs[p][0].fileno())}")
''' if io else ""
    closing = '''    for left, right in pairs.values():
        loop.remove_reader(left.fileno())
        left.close()
        right.close()
''' if io else ""
    return f'''\
"""TODO: one line saying what this checks (found by the differential tester:
{origin}, shrunk). One unit of loop time is 1 ms here."""
{"import socket" + chr(10) if io else ""}import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    done = []

    def now():
        return f"{{loop.time():.0f}}"

    def ran(id_):
        print(f"run {{id_}} t={{now()}}")
{handles}{pairs}
    def handler(loop, context):
        print(f"handler {{context['exception'].args[0]}}")

    def sentinel():  # after every other timer, it ends the scenario
        done.append(True)
        loop.stop()

    loop.set_exception_handler(handler)
    loop.call_at({float(latest_deadline(ops) + 1)}, sentinel)
{body}

    while not done:
        loop.run_forever()
        print(f"run_forever returned t={{now()}}")
{closing}    loop.close()


main()
'''


def run_twin(python: str, twin: Path) -> List[str]:
    """What a scenario twin prints, run from wherever it was written (it imports
    virtual_clock from comparisons/scenarios/, where it will be saved)."""
    code = ("import runpy, sys; sys.path.insert(0, sys.argv[1]); "
            "runpy.run_path(sys.argv[2], run_name='__main__')")
    result = subprocess.run([python, "-I", "-c", code, str(ROOT / "comparisons" / "scenarios"),
                             str(twin)], capture_output=True, text=True)
    return result.stdout.splitlines()


def _program_comment(ops: Program) -> str:
    return "// The program (tests/differential/README.md):\n" + "".join(
        f"//   {line}\n" for line in format_program(ops).splitlines())


def clang_formatted(source: str) -> str:
    """`source` in the repository's style, if clang-format is installed."""
    tool = shutil.which("clang-format")
    if tool is None:
        return source
    result = subprocess.run([tool, "--style=file", f"--assume-filename={ROOT / 'tests' / 'x.cpp'}"],
                            input=source, capture_output=True, text=True)
    return result.stdout if result.returncode == 0 and result.stdout else source


# --------------------------------------------------------------------- main ----


def _shown(path: Path) -> str:
    """`path` relative to the current folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class Case(NamedTuple):
    """One program of a run, and how to name and find it again."""

    label: str  # s02-seed1-n17: names the files written for it
    origin: str  # how it was made, for the scenario's comment
    program: Program
    regenerate: Optional[List[str]]  # the difftest.py arguments that generate it again


def report_mismatch(args, tester: Tester, case: Case) -> None:
    label, program = case.label, case.program
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"shrinking {label} ({size(program)} ops)...", flush=True)
    (out / f"{label}.original.program").write_text(format_program(program))
    small = program if args.no_shrink else shrink(program, tester, lambda text: print(text, flush=True))
    ours, theirs = (t[0] for t in tester.run([format_program(small)]))
    paths = {"program": out / f"{label}.program", "looplab": out / f"{label}.looplab.trace",
             "cpython": out / f"{label}.cpython.trace"}
    paths["program"].write_text(format_program(small))
    paths["looplab"].write_text("".join(f"{line}\n" for line in ours))
    paths["cpython"].write_text("".join(f"{line}\n" for line in theirs))
    name = re.sub(r"\W", "_", f"difftest_{label}").lower()
    cpp = out / f"{name}.cpp"
    py = out / f"{name}.py"
    # Scenario twins are written for the ops of stages 02 to 04 only.
    twins = not any(op.kind in FUTURE_KINDS for op in walk(small))
    if twins:
        cpp.write_text(clang_formatted(cpp_scenario(name, small, theirs, case.origin)))
        py.write_text(py_scenario(small, case.origin))
        twin_ok = run_twin(tester.cpython.command[0], py) == theirs
    group = "io" if any(op.kind in IO_KINDS for op in walk(small)) else "timers"

    print(f"\nminimal program ({size(small)} ops, from {size(program)}):\n")
    print(format_program(small), end="")
    print("\ntraces (- CPython asyncio, + looplab):")
    for line in list(difflib.unified_diff(theirs, ours, "CPython", "looplab", lineterm=""))[2:]:
        print(f"  {line}")
    print("\nwritten:")
    for path in [*paths.values(), *([cpp, py] if twins else [])]:
        print(f"  {_shown(path)}")
    if twins:
        print(f"\nscenario skeleton, with CPython's trace as its expect lines "
              f"(save as tests/scenarios/{group}/{name}.cpp, and {_shown(py)} as "
              f"comparisons/scenarios/{group}/{name}.py; its output "
              f"{'matches' if twin_ok else 'DOES NOT match'} CPython's trace):\n")
        print(cpp.read_text())
    else:
        print("\n(no scenario twins: the program uses futures or tasks, which the scenario "
              "writer does not translate; write them by hand from the program and CPython's "
              "trace)\n")
    print("reproduce:")
    if case.regenerate:
        print(f"  {_command(args, case.regenerate)}")
    print(f"  {_command(args, ['--replay', _shown(paths['program'])])}")


def _command(args, what: List[str]) -> str:
    parts = [_shown(Path(__file__)), "--binary", _shown(Path(args.binary)),
             "--stage", str(args.stage), *what]
    if args.python:
        parts += ["--python", args.python]
    return shlex.join(parts)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Run random loop programs on looplab and on CPython asyncio; compare traces.")
    parser.add_argument("--binary", help="the C++ interpreter, build/<preset>/bin/differential_sNN")
    parser.add_argument("--stage", type=int, required=True,
                        help="the stage under test: only ops it supports are generated")
    parser.add_argument("--count", type=int, default=2000, help="how many programs (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    parser.add_argument("--start", type=int, default=0,
                        help="index of the first program (program N of a seed is always the same)")
    parser.add_argument("--python", default=None,
                        help="CPython for the twin (default: newest 3.12+, or $PYTHON)")
    parser.add_argument("--replay", type=Path, default=None,
                        help="run the program(s) in this file instead of generating them")
    parser.add_argument("--print", action="store_true",
                        help="print the generated programs (separated by %%) and exit")
    parser.add_argument("--no-shrink", action="store_true", help="report a mismatch unshrunk")
    parser.add_argument("--out", default=str(ROOT / "build" / "differential"),
                        help="where a mismatch is written (default build/differential/)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.replay is not None:
        try:
            windows = [_replayed(args.replay)]
        except (OSError, ProgramError) as error:
            print(f"difftest: {args.replay}: {error}", file=sys.stderr)
            return 2
    else:
        windows = _generated(args)
    if args.print:
        for window in windows:
            sys.stdout.write("".join(format_program(c.program) + DELIMITER + "\n" for c in window))
        return 0
    if not args.binary:
        print("difftest: --binary is required (unless --print)", file=sys.stderr)
        return 2
    try:
        interpreter = (pythons.require(args.python, pythons.DEFAULT_MIN_VERSION, what="--python")
                       if args.python else pythons.newest_cpython())
        tester = Tester(Side("looplab", [str(Path(args.binary).resolve())]),
                        Side("CPython", [interpreter.path, "-I", str(TWIN)]))
        what = (f"stage {args.stage:02d}, " +
                (f"replay of {args.replay}" if args.replay else f"seed {args.seed}"))
        began = time.monotonic()
        total = ops = 0
        for window in windows:
            ours, theirs = tester.run([format_program(case.program) for case in window])
            total += len(window)
            ops += sum(size(case.program) for case in window)
            bad = [case for case, a, b in zip(window, ours, theirs) if a is not None and a != b]
            unrun = sum(trace is None for trace in ours)
            timing = (f"{ops} ops; looplab {tester.looplab.seconds:.1f} s, CPython "
                      f"{interpreter.version_str} {tester.cpython.seconds:.1f} s, "
                      f"wall {time.monotonic() - began:.1f} s")
            if bad:
                skipped = f", {unrun} more not run after {MAX_CRASHES} crashes" if unrun else ""
                print(f"{len(bad)} of {len(window)} programs: traces differ{skipped} ({what}; "
                      f"{timing}); first: {bad[0].label}")
                report_mismatch(args, tester, bad[0])
                return 1
            if args.count > BATCH_SIZE and args.replay is None:
                print(f"  {total} programs, identical so far ({timing})", flush=True)
        print(f"{total} program{'s' * (total != 1)}, traces identical ({what}; {timing})")
        return 0
    except (ToolError, pythons.InterpreterError) as error:
        print(f"difftest: {error}", file=sys.stderr)
        return 2


def _generated(args) -> Iterator[List[Case]]:
    """The programs of a run, a window of BATCH_SIZE at a time, so that a long run
    (--count 1000000) never holds more than one window in memory."""
    end = args.start + args.count
    for first in range(args.start, end, BATCH_SIZE):
        yield [Case(f"s{args.stage:02d}-seed{args.seed}-n{i}",
                    f"difftest.py --stage {args.stage} --seed {args.seed} --start {i} --count 1",
                    generate(args.stage, args.seed, i),
                    ["--seed", str(args.seed), "--start", str(i), "--count", "1"])
               for i in range(first, min(first + BATCH_SIZE, end))]


def _replayed(path: Path) -> List[Case]:
    """The program(s) of a file written by difftest.py or by hand."""
    programs = [parse_program(text) for text in split_programs(path.read_text())]
    stem = path.name.split(".")[0]
    return [Case(f"{stem}-replay{i if len(programs) > 1 else ''}", f"replay of {path.name}",
                 program, None) for i, program in enumerate(programs)]


if __name__ == "__main__":
    sys.exit(main())
