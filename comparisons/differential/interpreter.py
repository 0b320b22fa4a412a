"""The differential tester's Python twin: runs loop programs on CPython asyncio.

tests/differential/difftest.py generates random loop programs (the format is
described in tests/differential/README.md) and feeds the same programs to two
interpreters: tests/differential/interpreter.cpp runs them on looplab, this
file runs them on CPython's own asyncio loop, on the virtual clock of
comparisons/scenarios/virtual_clock.py. The two traces must be identical.

Programs come on stdin, separated by lines ``%%``; each program's trace goes to
stdout followed by a line ``%%`` (flushed), one fresh loop per program::

    python3 comparisons/differential/interpreter.py < programs.txt

Times: one unit of loop time is one millisecond here. ``call_later(5.0)`` means
5 ms, every deadline is a whole number and float arithmetic on whole numbers is
exact, so equal deadlines are exactly equal, as they are on the C++ side.
The loop's clock resolution stays 1e-9 units, so a timer is due exactly when
``when <= time()``, as on looplab's VirtualClock (1 ns resolution).

From stage 05 programs also make futures, and from stage 06 tasks: a task's
body is a coroutine whose awaits (sleep, await_future, await_task, wait_for,
shield, timeout regions) are ops of their own (tests/differential/README.md,
"Stages 05 and 06").

Only the standard library; runs under CPython 3.12 or later.
"""
import asyncio
import gc
import socket
import sys
import threading
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scenarios"))
from virtual_clock import new_virtual_loop  # noqa: E402

DELIMITER = "%%"

# kind -> (number of integer operands, takes a body, first stage)
# Keep in step with tests/differential/interpreter.cpp and difftest.py.
OPS = {
    "soon": (1, True, 2),  # soon ID
    "later": (2, True, 2),  # later ID DELAY
    "at": (2, True, 2),  # at ID WHEN
    "cancel": (1, False, 2),  # cancel ID
    "stop": (0, False, 2),
    "raise": (0, False, 2),
    # Stage 03: readers on socketpairs (tests/differential/README.md, "Stage 03").
    "pair": (1, False, 3),  # pair P
    "reader": (2, True, 3),  # reader ID P
    "write": (2, False, 3),  # write P BYTES
    "remove_reader": (1, False, 3),  # remove_reader P
    # Stage 05: futures (README.md, "Stages 05 and 06").
    "future": (1, False, 5),  # future F          loop.create_future(), replaces an older F
    "resolve": (2, False, 5),  # resolve F VALUE   F.set_result(VALUE)
    "fail": (1, False, 5),  # fail F            F.set_exception(ValueError("fF"))
    "cancel_future": (2, False, 5),  # cancel_future F MSG   F.cancel(MSG or None), prints the bool
    "done_cb": (2, True, 5),  # done_cb ID F      F.add_done_callback(callback ID)
    "remove_cb": (2, False, 5),  # remove_cb ID F    F.remove_done_callback(callback ID), prints N
    "run_until": (1, False, 5),  # run_until F       top level: loop.run_until_complete(F)
    # Stage 06: tasks; the awaits and catch_cancel go in a task's body (or a timeout region) only.
    "task": (1, True, 6),  # task T            loop.create_task(body of T)
    "sleep": (1, False, 6),  # sleep MS          await asyncio.sleep(MS)
    "await_future": (1, False, 6),  # await_future F    await F
    "await_task": (1, False, 6),  # await_task T      await T
    "catch_cancel": (0, False, 6),  # catch_cancel      from here on, swallow CancelledError
    "cancel_task": (2, False, 6),  # cancel_task T MSG T.cancel(MSG or None), prints the bool
    "cancelling": (1, False, 6),  # cancelling T      prints T.cancelling()
    "uncancel": (1, False, 6),  # uncancel T        prints T.uncancel()
    "current": (0, False, 6),  # current           prints asyncio.current_task()'s id, or None
    "run_until_task": (1, False, 6),  # run_until_task T  top level: loop.run_until_complete(T)
    "wait_for": (2, False, 6),  # wait_for F MS     await asyncio.wait_for(F, MS)
    "shield": (1, False, 6),  # shield F          await asyncio.shield(F)
    "timeout": (2, True, 6),  # timeout ID MS     async with asyncio.timeout(MS): its body
    "wait_first": (2, False, 6),  # wait_first F MS   await asyncio.wait([F], timeout=MS, FIRST_COMPLETED)
    "set_task_result": (1, False, 6),  # set_task_result T   T.set_result(0): RuntimeError
    # gather T F E      await asyncio.gather(T, F[, T], return_exceptions=E & 1): T twice if E & 2
    "gather": (3, False, 6),
    # Locks, semaphores, events; acquire and wait_event in a task's body only.
    "lock": (1, False, 6),  # lock S            asyncio.Lock() as S (replaces an older S)
    "semaphore": (2, False, 6),  # semaphore S N     asyncio.Semaphore(N) as S
    "acquire": (1, False, 6),  # acquire S         await S.acquire()
    "release": (1, False, 6),  # release S         S.release(), prints done or the error
    "event": (1, False, 6),  # event E           asyncio.Event() as E
    "wait_event": (1, False, 6),  # wait_event E      await E.wait()
    "set_event": (1, False, 6),  # set_event E       E.set()
    "clear_event": (1, False, 6),  # clear_event E     E.clear()
    # Stage 07: eager tasks.
    "task_factory": (1, False, 7),  # task_factory E    loop.set_task_factory(eager_task_factory if E else None)
    # Stage 07 also has queues; put, get and join in a task's body only.
    "queue": (2, False, 7),  # queue Q N         asyncio.Queue(maxsize=N)
    "put": (2, False, 7),  # put Q V           await Q.put(V)
    "get": (1, False, 7),  # get Q             await Q.get()
    "put_nowait": (2, False, 7),  # put_nowait Q V    Q.put_nowait(V), prints done or the error
    "get_nowait": (1, False, 7),  # get_nowait Q      Q.get_nowait(), prints the value or the error
    "task_done": (1, False, 7),  # task_done Q       Q.task_done(), prints done or the error
    "join": (1, False, 7),  # join Q            await Q.join()
    # Stage 08: task groups, in a task's body only.
    "group": (1, True, 8),  # group ID          async with asyncio.TaskGroup() as group: its body
    "group_task": (1, True, 8),  # group_task T  in a group's body: group.create_task(body of T)
    # Stage 09: another thread posts a callback, and is joined before the next op.
    "post": (1, True, 9),  # post ID           loop.call_soon_threadsafe(cb), from a thread
}
SCHEDULING = ("soon", "later", "at", "post")
# Ops that only a task's body (or a timeout region in it) may hold, and ops
# that only the top level may.
AWAITS = ("sleep", "await_future", "await_task", "wait_for", "shield", "timeout", "wait_first",
          "group", "gather", "put", "get", "join", "acquire", "wait_event")
TASK_ONLY = AWAITS + ("catch_cancel",)
TOP_ONLY = ("run_until", "run_until_task")
# The ops of stages 05 and 06: a program with any of them gets the sentinel of latest_deadline().
FUTURE_KINDS = frozenset(kind for kind, spec in OPS.items() if spec[2] >= 5)
# The end of a program gives the tasks still pending at most this many turns to finish.
CLEANUP_TURNS = 10


class ProgramError(Exception):
    """The program text is malformed."""


class Op:
    __slots__ = ("kind", "args", "body")

    def __init__(self, kind, args):
        self.kind = kind
        self.args = args
        self.body = []


def parse(lines):
    """The top-level ops of a program; a body is indented two spaces deeper."""
    top = []
    stack = [(-1, top, None)]  # (indent of the owner, its body, its kind)
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip(" "))
        words = text.split()
        kind = words[0]
        if kind not in OPS:
            raise ProgramError(f"line {number}: unknown op {kind!r}")
        count, _, _ = OPS[kind]
        try:
            args = [int(word) for word in words[1:]]
        except ValueError:
            raise ProgramError(f"line {number}: operands must be integers") from None
        if len(args) != count:
            raise ProgramError(f"line {number}: {kind} takes {count} operand(s)")
        while indent <= stack[-1][0]:
            stack.pop()
        owner_indent, body, owner = stack[-1]
        if indent != owner_indent + 2 and not (owner_indent == -1 and indent == 0):
            raise ProgramError(f"line {number}: bad indentation")
        if kind == "raise" and owner_indent == -1:
            raise ProgramError(f"line {number}: raise outside a callback")
        if kind in TASK_ONLY and owner not in ("task", "timeout", "group", "group_task"):
            raise ProgramError(f"line {number}: {kind} outside a task's body")
        if kind in TOP_ONLY and owner_indent != -1:
            raise ProgramError(f"line {number}: {kind} below the top level")
        op = Op(kind, args)
        body.append(op)
        if OPS[kind][1]:
            stack.append((indent, op.body, kind))
    return top


def latest_deadline(ops):
    """The latest time any timer of the program can be due: the sentinel goes after it.

    With futures or tasks, a wait can end at any time, so the bound is the
    latest `at` plus every delay, sleep and timeout of the program, each
    counted as often as it can run (the body of a reader once per write)."""
    if any(op.kind in FUTURE_KINDS for op in walk(ops)):
        latest_at, delays = _sum_bound(ops, 1, count_kind(ops, "write"))
        return latest_at + delays
    return _latest(ops, 0, _latest(ops, 0, -1))


def walk(ops):
    for op in ops:
        yield op
        yield from walk(op.body)


def _sum_bound(ops, times, writes):
    latest_at, delays = 0, 0
    for op in ops:
        if op.kind == "at":
            latest_at = max(latest_at, op.args[1])
        elif op.kind == "later":
            delays += max(op.args[1], 0) * times
        elif op.kind == "sleep":
            delays += max(op.args[0], 0) * times
        elif op.kind in ("wait_for", "timeout", "wait_first"):
            delays += max(op.args[1], 0) * times
        at, more = _sum_bound(op.body, times * writes if op.kind == "reader" else times, writes)
        latest_at, delays = max(latest_at, at), delays + more
    return latest_at, delays


def _latest(ops, now, reader_at):
    """A reader runs when its pair has data: it counts as running at `reader_at`
    (-1: readers are left out, which gives the time of the last write)."""
    latest = now
    for op in ops:
        if op.kind in SCHEDULING or (op.kind == "reader" and reader_at >= 0):
            if op.kind in ("soon", "post"):
                runs_at = now
            elif op.kind == "later":
                runs_at = now + max(op.args[1], 0)
            elif op.kind == "at":
                runs_at = max(now, op.args[1])
            else:
                runs_at = max(now, reader_at)
            latest = max(latest, runs_at, _latest(op.body, runs_at, reader_at))
    return latest


def ms(t):
    """Loop time as the trace prints it: whole milliseconds."""
    return str(int(t)) if t == int(t) else repr(t)


class InsertionOrderedSet(dict):
    """What TaskGroup._tasks needs of a set (add, discard, iteration, len),
    iterated in insertion order. asyncio's is a set of tasks, iterated in an
    order that depends on their addresses: when a group aborts, its children
    are cancelled in that order, which no two runs need share. looplab
    cancels them in the order they were made; with this, so does CPython."""

    def add(self, item):
        self[item] = None

    def discard(self, item):
        self.pop(item, None)


def error_text(error):
    """An exception as the trace prints it: "cancelled" or "cancelled(MSG)",
    "exception ValueError(MESSAGE)", or "exception TYPE" for any other.

    A cancelled task's message is printed too: CPython gives the
    CancelledError that ended the coroutine to the first caller of result()
    or exception(), and later ones a CancelledError() without it, as looplab
    does."""
    if isinstance(error, asyncio.CancelledError):
        message = str(error)
        return f"cancelled({message})" if message else "cancelled"
    if type(error) is ValueError:
        return f"exception ValueError({error.args[0] if error.args else ''})"
    if isinstance(error, BaseExceptionGroup):  # ExceptionGroup[ValueError(2), ...]
        members = ", ".join(error_text(e).removeprefix("exception ") for e in error.exceptions)
        return f"exception ExceptionGroup[{members}]"
    return f"exception {type(error).__name__}"


def outcome(future):
    """How a done future ended, in a done callback; cancelled without the
    message (retrieving a task's CancelledError would use it up for its
    awaiters)."""
    if future.cancelled():
        return "cancelled"
    error = future.exception()
    return error_text(error) if error is not None else f"value {future.result()}"


def message(number):
    """The message of cancel_future F MSG and cancel_task T MSG: none for 0."""
    return None if number == 0 else str(number)


class Run:
    """One program on one fresh asyncio loop."""

    def __init__(self, ops, out):
        self.ops = ops
        self.out = out
        self.loop = new_virtual_loop()
        self.handles = {}
        self.pairs = {}  # pair P: (left end, right end)
        self.done = False
        self.trace_over = False  # finish_futures() has run: the handler prints no more
        self.futures = {}  # future F: the latest one made
        self.queues = {}  # queue Q: the latest one made
        self.syncs = {}  # lock or semaphore S: the latest one made
        self.events = {}  # event E: the latest one made
        self.every_future = []  # every future made, kept to the end
        self.done_callbacks = {}  # done_cb ID: the function its latest run added
        self.tasks = {}  # task T: the latest one made
        self.every_task = []  # (T, task), every task made, in order
        self.task_ids = {}  # task -> T

    def post_from_a_thread(self, op):
        """call_soon_threadsafe() from a thread of its own, joined at once; what
        it raised is raised here."""
        outcome = []

        def post():
            try:
                outcome.append(self.loop.call_soon_threadsafe(self.callback, op))
            except BaseException as error:  # noqa: BLE001 - raised again below
                outcome.append(error)

        thread = threading.Thread(target=post)
        thread.start()
        thread.join()
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    def execute(self, ops, owner):
        for op in ops:
            kind = op.kind
            if kind == "soon":
                self.handles[op.args[0]] = self.loop.call_soon(self.callback, op)
            elif kind == "later":
                self.handles[op.args[0]] = self.loop.call_later(float(op.args[1]), self.callback, op)
            elif kind == "at":
                self.handles[op.args[0]] = self.loop.call_at(float(op.args[1]), self.callback, op)
            elif kind == "post":
                self.handles[op.args[0]] = self.post_from_a_thread(op)
            elif kind == "cancel":
                handle = self.handles.get(op.args[0])
                if handle is not None:  # not scheduled (yet): nothing to cancel
                    handle.cancel()
            elif kind == "stop":
                self.loop.stop()
            elif kind == "raise":
                raise ValueError(str(owner))
            elif kind == "pair":  # a second `pair P` does nothing
                if op.args[0] not in self.pairs:
                    ends = socket.socketpair()
                    for end in ends:
                        end.setblocking(False)
                    self.pairs[op.args[0]] = ends
            elif kind in ("reader", "write", "remove_reader"):
                number = op.args[1] if kind == "reader" else op.args[0]
                if number not in self.pairs:  # not made (yet): nothing
                    continue
                left, right = self.pairs[number]
                if kind == "reader":
                    self.loop.add_reader(left.fileno(), self.read, op, left)
                elif kind == "write":
                    right.sendall(b"x" * op.args[1])
                else:
                    removed = self.loop.remove_reader(left.fileno())
                    self.out.append(f"remove_reader {number} -> {removed}")
            elif kind in FUTURE_KINDS:
                self.execute_future_op(op, owner)

    def execute_future_op(self, op, owner):
        """The ops of stages 05 and 06. An op on a future or a task not made
        (yet) does nothing and prints nothing."""
        kind, args = op.kind, op.args
        if kind == "future":
            future = self.loop.create_future()
            self.futures[args[0]] = future
            self.every_future.append(future)
            return
        if kind == "task_factory":
            self.loop.set_task_factory(asyncio.eager_task_factory if args[0] else None)
            return
        if kind == "queue":
            self.queues[args[0]] = asyncio.Queue(maxsize=args[1])
            return
        if kind in ("lock", "semaphore"):
            self.syncs[args[0]] = asyncio.Lock() if kind == "lock" else asyncio.Semaphore(args[1])
            return
        if kind == "event":
            self.events[args[0]] = asyncio.Event()
            return
        if kind == "release":
            lock = self.syncs.get(args[0])
            if lock is not None:
                try:
                    lock.release()
                    text = "done"
                except RuntimeError as error:
                    text = error_text(error)
                self.out.append(f"release {args[0]} -> {text}")
            return
        if kind in ("set_event", "clear_event"):
            event = self.events.get(args[0])
            if event is not None and kind == "set_event":
                event.set()
            elif event is not None:
                event.clear()
            return
        if kind in ("put_nowait", "get_nowait", "task_done"):
            queue = self.queues.get(args[0])
            if queue is None:
                return
            what = " ".join([kind, *map(str, args)])
            try:
                if kind == "put_nowait":
                    queue.put_nowait(args[1])
                    text = "done"
                elif kind == "get_nowait":
                    text = f"value {queue.get_nowait()}"
                else:
                    queue.task_done()
                    text = "done"
            except Exception as error:  # noqa: BLE001 - printed
                text = error_text(error)
            self.out.append(f"{what} -> {text}")
            return
        if kind == "task":
            self.record_task(args[0], self.loop.create_task(self.task_body(op)))
            return
        if kind == "current":
            task = asyncio.current_task(self.loop)
            self.out.append(f"current -> {'None' if task is None else self.task_ids[task]}")
            return
        if kind in ("cancel_task", "cancelling", "uncancel", "run_until_task", "set_task_result"):
            task = self.tasks.get(args[0])
            if task is None:
                return
            if kind == "set_task_result":
                try:
                    task.set_result(0)
                    text = "accepted"
                except RuntimeError as error:
                    text = error_text(error)
                self.out.append(f"set_task_result {args[0]} -> {text}")
            elif kind == "cancel_task":
                self.out.append(f"cancel_task {args[0]} -> {task.cancel(message(args[1]))}")
            elif kind == "cancelling":
                self.out.append(f"cancelling {args[0]} -> {task.cancelling()}")
            elif kind == "uncancel":
                self.out.append(f"uncancel {args[0]} -> {task.uncancel()}")
            else:
                self.run_until(f"run_until_task {args[0]}", task)
            return
        number = args[1] if kind in ("done_cb", "remove_cb") else args[0]
        future = self.futures.get(number)
        if future is None:
            return
        if kind in ("resolve", "fail"):
            try:
                if kind == "resolve":
                    future.set_result(args[1])
                else:
                    future.set_exception(ValueError(f"f{number}"))
            except asyncio.InvalidStateError:
                self.out.append(f"{kind} {number} -> InvalidStateError")
        elif kind == "cancel_future":
            self.out.append(f"cancel_future {number} -> {future.cancel(message(args[1]))}")
        elif kind == "done_cb":
            def callback(done, op=op):
                self.out.append(f"done {op.args[0]} {op.args[1]} t={ms(self.loop.time())} "
                                f"-> {outcome(done)}")
                self.execute(op.body, op.args[0])
            self.done_callbacks[args[0]] = callback
            future.add_done_callback(callback)
        elif kind == "remove_cb":
            callback = self.done_callbacks.get(args[0])
            count = 0 if callback is None else future.remove_done_callback(callback)
            self.out.append(f"remove_cb {args[0]} {number} -> {count}")
        elif kind == "run_until":
            self.run_until(f"run_until {number}", future)

    def run_until(self, what, future):
        try:
            value = self.loop.run_until_complete(future)
        except asyncio.CancelledError as error:
            text = error_text(error)
        except Exception as error:  # noqa: BLE001 - printed
            text = error_text(error)
        else:
            text = f"value {value}"
        self.out.append(f"{what} t={ms(self.loop.time())} -> {text}")

    def record_task(self, id_, task):
        """A task made by `task T` or `group_task T`: known by its id from now
        on, and "end T" once it is done."""
        self.tasks[id_] = task
        self.every_task.append((id_, task))
        task.add_done_callback(lambda done: self.out.append(
            f"end {id_} t={ms(self.loop.time())} -> {outcome(done)}"))

    def make_group_task(self, op, group):
        """group_task T in a group's body; a group shutting down or finished refuses."""
        try:
            self.record_task(op.args[0], group.create_task(self.task_body(op)))
        except RuntimeError as error:
            self.out.append(f"group_task {op.args[0]} -> {error_text(error)}")

    async def task_body(self, op):
        """Task T: "start T", then its body (block()); the task's result is T."""
        # Known by its id from its first step on, which an eager task runs
        # inside create_task(), before the caller can record it.
        self.task_ids[asyncio.current_task()] = op.args[0]
        self.out.append(f"start {op.args[0]} t={ms(self.loop.time())}")
        await self.block(op.body, op.args[0], {"catching": False}, None)
        return op.args[0]

    async def block(self, ops, id_, task, group):
        """The body of task `id_` (or of a timeout or group region in it;
        `group`: the innermost group region's, None outside one): its ops in
        order. An await prints what it got; an exception other than
        CancelledError is printed and the body goes on; a CancelledError ends
        the task unless a catch_cancel of the task came first."""
        for child in ops:
            kind = child.kind
            if kind == "catch_cancel":
                task["catching"] = True
                continue
            if kind == "group_task":
                if group is not None:
                    self.make_group_task(child, group)
                continue
            if kind not in AWAITS:
                self.execute([child], id_)
                continue
            what = " ".join([kind, *map(str, child.args)])
            if kind == "sleep":
                awaitable = asyncio.sleep(float(child.args[0]))
            elif kind == "timeout":
                awaitable = self.limited(child, id_, task, group)
            elif kind == "group":
                awaitable = self.grouped(child, id_, task)
            elif kind == "gather":
                awaitable = self.gathered(*child.args)
                if awaitable is None:
                    continue
            elif kind in ("acquire", "wait_event"):
                table = self.syncs if kind == "acquire" else self.events
                primitive = table.get(child.args[0])
                if primitive is None:
                    continue
                awaitable = primitive.acquire() if kind == "acquire" else primitive.wait()
            elif kind in ("put", "get", "join"):
                queue = self.queues.get(child.args[0])
                if queue is None:
                    continue
                awaitable = (queue.put(child.args[1]) if kind == "put" else
                             queue.get() if kind == "get" else queue.join())
            else:
                table = self.tasks if kind == "await_task" else self.futures
                awaitable = table.get(child.args[0])
                if awaitable is None:
                    continue
                if kind == "shield":
                    awaitable = asyncio.shield(awaitable)
                elif kind == "wait_for":
                    awaitable = asyncio.wait_for(awaitable, float(child.args[1]))
                elif kind == "wait_first":
                    awaitable = asyncio.wait([awaitable], timeout=float(child.args[1]),
                                             return_when=asyncio.FIRST_COMPLETED)
            try:
                value = await awaitable
            except asyncio.CancelledError as error:
                text = error_text(error)
                self.out.append(f"{id_} {what} t={ms(self.loop.time())} -> {text}")
                if not task["catching"]:
                    raise
                continue
            except Exception as error:  # noqa: BLE001 - printed
                text = error_text(error)
            else:
                if kind == "wait_first":
                    text = "done" if value[0] else "pending"
                elif kind == "gather":
                    text = "values [" + ", ".join(
                        error_text(v) if isinstance(v, BaseException) else str(v)
                        for v in value) + "]"
                else:
                    text = ("done" if kind in ("sleep", "timeout", "group", "put", "join") else
                            f"value {value}")
            self.out.append(f"{id_} {what} t={ms(self.loop.time())} -> {text}")

    def gathered(self, task_id, future_id, how):
        """gather T F E: asyncio.gather() of task T, then future F (left out if
        the program has no F), then T again if E & 2; return_exceptions if E & 1.
        None if there is no task T."""
        task = self.tasks.get(task_id)
        if task is None:
            return None
        children = [task]
        if future_id in self.futures:
            children.append(self.futures[future_id])
        if how & 2:
            children.append(task)
        return asyncio.gather(*children, return_exceptions=bool(how & 1))

    async def limited(self, op, id_, task, group):
        """timeout ID MS: its body, under asyncio.timeout(MS)."""
        async with asyncio.timeout(float(op.args[1])):
            await self.block(op.body, id_, task, group)

    async def grouped(self, op, id_, task):
        """group ID: its body, in a TaskGroup whose children are cancelled in
        the order they were made (see InsertionOrderedSet)."""
        group = asyncio.TaskGroup()
        group._tasks = InsertionOrderedSet()
        async with group:
            await self.block(op.body, id_, task, group)

    def callback(self, op):
        self.out.append(f"run {op.args[0]} t={ms(self.loop.time())}")
        self.execute(op.body, op.args[0])

    def read(self, op, sock):
        """A reader drains its end (to EAGAIN, or EOF), says how much it read, runs its body."""
        count = 0
        while True:
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                break
            count += len(data)
            if not data:
                break
        self.out.append(f"read {op.args[0]} {op.args[1]} t={ms(self.loop.time())} n={count}")
        self.execute(op.body, op.args[0])

    def handler(self, loop, context):
        exception = context.get("exception")
        if self.trace_over:
            return  # a pending task destroyed at the end, say: when Python collects it is not comparable
        self.out.append(f"handler {exception.args[0] if exception is not None else '?'}")

    def sentinel(self):
        self.done = True
        self.loop.stop()

    def cleanup(self):
        """The tasks still pending are cancelled, in the order they were made,
        and get up to CLEANUP_TURNS turns (no time passes) to finish."""
        pending = [(id_, task) for id_, task in self.every_task if not task.done()]
        for id_, task in pending:
            self.out.append(f"cleanup {id_}")
            task.cancel()
        for _ in range(CLEANUP_TURNS):
            if all(task.done() for _, task in pending):
                break
            self.loop.stop()
            self.loop.run_forever()

    def finish_futures(self):
        """At the end, after the last line of the trace: every exception is
        retrieved, so none is reported as never retrieved (Python would report
        it whenever it collects the future); every future still pending is
        cancelled, as the C++ side does to break shield()'s reference cycles
        (its callbacks are queued, and dropped by close()). The trace is over:
        the handler prints nothing more."""
        self.trace_over = True
        for future in self.every_future:
            if not future.done():
                future.cancel()
        for future in self.every_future + [task for _, task in self.every_task]:
            if future.done() and not future.cancelled():
                future.exception()

    def run(self):
        loop = self.loop
        try:
            loop.set_exception_handler(self.handler)
            loop.call_at(float(latest_deadline(self.ops) + 1), self.sentinel)
            self.execute(self.ops, None)
            stops = 1 + count_stops(self.ops, count_kind(self.ops, "write"))
            while not self.done:
                loop.run_forever()
                self.out.append(f"run_forever returned t={ms(loop.time())}")
                stops -= 1
                if stops < 0:
                    self.out.append("driver: run_forever returned more often than stop() was called")
                    break
            self.cleanup()
        except Exception as error:  # noqa: BLE001 - reported in the trace
            self.out.append(f"driver: {type(error).__name__}: {error}")
        finally:
            self.finish_futures()
            for left, right in self.pairs.values():
                loop.remove_reader(left.fileno())
                left.close()
                right.close()
            loop.close()


def count_kind(ops, kind):
    return sum((op.kind == kind) + count_kind(op.body, kind) for op in ops)


def count_stops(ops, writes):
    """How many times stop() can be called: a reader runs at most once per write."""
    return sum((op.kind == "stop") + count_stops(op.body, writes)
               * (writes if op.kind == "reader" else 1)
               for op in ops)


def run_program(lines):
    out = []
    try:
        ops = parse(lines)
    except ProgramError as error:
        out.append(f"error: {error}")
    else:
        run = Run(ops, out)
        run.run()
        if any(not task.done() for _, task in run.every_task):
            # The coroutines of the tasks left pending are garbage now, in
            # reference cycles. Collected here, between programs, their
            # finalizers (which resume them with GeneratorExit) cannot run in
            # the middle of the next program, where what they do would change
            # its loop (seed 9's program 1872 of stage 09 did). What they print
            # is not the program's: looplab destroys such a coroutine unresumed.
            trace = list(out)
            del run
            gc.collect()
            return trace
    return out


def main():
    # A task made too late to start (the loop stopped for good first): its
    # coroutine is never awaited, which is part of the program, not news.
    warnings.filterwarnings("ignore", r"coroutine .* was never awaited", RuntimeWarning)
    lines = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.strip() == DELIMITER:
            sys.stdout.write("".join(f"{text}\n" for text in run_program(lines)) + DELIMITER + "\n")
            sys.stdout.flush()
            lines = []
        else:
            lines.append(line)
    if any(line.split("#", 1)[0].strip() for line in lines):  # a last program without %%
        sys.stdout.write("".join(f"{text}\n" for text in run_program(lines)) + DELIMITER + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
