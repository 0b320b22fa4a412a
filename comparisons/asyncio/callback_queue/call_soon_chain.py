"""call_soon_chain: one callback reschedules itself with call_soon, one hop per turn.

One op = one hop = one turn of the loop.  N = 100,000 hops (10,000 with
--quick), then the last hop calls stop().

Unlike the C++ loop of stages 01-02, which has no selector, asyncio polls its
selector once per turn (select/epoll with timeout 0, a system call), so this
workload measures a turn of asyncio including that poll.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def run_batch(loop, ops):
    remaining = ops

    def hop():
        nonlocal remaining
        remaining -= 1
        if remaining:
            loop.call_soon(hop)  # runs in the next turn, never in this one
        else:
            loop.stop()

    loop.call_soon(hop)
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("call_soon_chain", run_batch, ops=100_000, quick_ops=10_000))
