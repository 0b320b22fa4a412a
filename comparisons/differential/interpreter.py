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

Only the standard library; runs under CPython 3.12 or later.
"""
import socket
import sys
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
}
SCHEDULING = ("soon", "later", "at")


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
    stack = [(-1, top)]  # (indent of the owner, its body)
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
        owner_indent, body = stack[-1]
        if indent != owner_indent + 2 and not (owner_indent == -1 and indent == 0):
            raise ProgramError(f"line {number}: bad indentation")
        if kind == "raise" and owner_indent == -1:
            raise ProgramError(f"line {number}: raise outside a callback")
        op = Op(kind, args)
        body.append(op)
        if OPS[kind][1]:
            stack.append((indent, op.body))
    return top


def latest_deadline(ops):
    """The latest time any timer of the program can be due: the sentinel goes after it."""
    return _latest(ops, 0, _latest(ops, 0, -1))


def _latest(ops, now, reader_at):
    """A reader runs when its pair has data: it counts as running at `reader_at`
    (-1: readers are left out, which gives the time of the last write)."""
    latest = now
    for op in ops:
        if op.kind in SCHEDULING or (op.kind == "reader" and reader_at >= 0):
            if op.kind == "soon":
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


class Run:
    """One program on one fresh asyncio loop."""

    def __init__(self, ops, out):
        self.ops = ops
        self.out = out
        self.loop = new_virtual_loop()
        self.handles = {}
        self.pairs = {}  # pair P: (left end, right end)
        self.done = False

    def execute(self, ops, owner):
        for op in ops:
            kind = op.kind
            if kind == "soon":
                self.handles[op.args[0]] = self.loop.call_soon(self.callback, op)
            elif kind == "later":
                self.handles[op.args[0]] = self.loop.call_later(float(op.args[1]), self.callback, op)
            elif kind == "at":
                self.handles[op.args[0]] = self.loop.call_at(float(op.args[1]), self.callback, op)
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
        self.out.append(f"handler {exception.args[0] if exception is not None else '?'}")

    def sentinel(self):
        self.done = True
        self.loop.stop()

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
        except Exception as error:  # noqa: BLE001 - reported in the trace
            self.out.append(f"driver: {type(error).__name__}: {error}")
        finally:
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
        Run(ops, out).run()
    return out


def main():
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
