"""reader_pingpong: two readers bounce one byte over a socket pair.

One op = one round trip: end A reads the byte and writes it back, end B reads
it and writes it back. Each turn of the loop polls select() once (asyncio's
SelectSelector, chosen explicitly, to compare like with like with looplab's
select() stage) and runs the one reader that is ready. N = 20,000 round trips
(2,000 with --quick).
"""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

_idle_pairs = []  # made once, reused by every batch (creating them is not the workload)


def idle_pairs(count):
    while len(_idle_pairs) < count // 2:
        _idle_pairs.append(socket.socketpair())
    return _idle_pairs[: count // 2]


def run_batch(loop, ops, idle=0):
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    pairs = idle_pairs(idle)
    for pair in pairs:
        for end in pair:
            loop.add_reader(end.fileno(), lambda: None)  # never readable
    remaining = ops

    def on_a():
        nonlocal remaining
        a.recv(1)
        remaining -= 1
        if remaining:
            a.send(b"x")
        else:
            loop.stop()

    def on_b():
        b.recv(1)
        b.send(b"x")

    loop.add_reader(a.fileno(), on_a)
    loop.add_reader(b.fileno(), on_b)
    b.send(b"x")
    loop.run_forever()
    loop.remove_reader(a.fileno())
    loop.remove_reader(b.fileno())
    for pair in pairs:
        for end in pair:
            loop.remove_reader(end.fileno())
    a.close()
    b.close()


if __name__ == "__main__":
    sys.exit(gbench.main("reader_pingpong", run_batch, ops=20_000, quick_ops=2_000,
                         selector="select"))
