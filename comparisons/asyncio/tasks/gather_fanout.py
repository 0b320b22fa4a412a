"""gather_fanout: one task gathers 100 new trivial tasks and awaits them, N/100 times.

One op = one child task: created with loop.create_task, stepped once (it
returns at once), its result collected by asyncio.gather.  Each round takes
three turns (the children's steps; gather's done callbacks; the parent's
wakeup), so the selector poll asyncio does each turn (epoll_wait with
timeout 0) is 3 per 100 ops and hardly shows.  N = 100,000 children =
1,000 rounds (10,000 = 100 rounds with --quick).
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

FANOUT = 100


async def plus_one(x):
    return x + 1


async def gather_rounds(loop, rounds):
    total = 0
    for _ in range(rounds):
        values = await asyncio.gather(*[loop.create_task(plus_one(i)) for i in range(FANOUT)])
        total += sum(values)
    return total


def run_batch(loop, ops):
    loop.run_until_complete(gather_rounds(loop, ops // FANOUT))


if __name__ == "__main__":
    sys.exit(gbench.main("gather_fanout", run_batch, ops=100_000, quick_ops=10_000))
