"""task_create_await: one task creates a trivial task and awaits its result, N times.

One op = one create + await: ``await loop.create_task(plus_one(i))``, where
plus_one returns at its first step.  That takes two turns of the loop (the
child's step, which finishes it; then the parent's wakeup, which creates the
next child), and asyncio polls its selector (epoll_wait with timeout 0) in
each: two polls per op, as looplab's /epoll row does (its /io_uring row
only peeks in user space; from stage 07 its plain row skips the polls, the
program watching no descriptor).  N = 100,000 (10,000 with --quick).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


async def plus_one(x):
    return x + 1


async def create_and_await(loop, times):
    total = 0
    for i in range(times):
        total += await loop.create_task(plus_one(i))
    return total


def run_batch(loop, ops):
    loop.run_until_complete(create_and_await(loop, ops))


if __name__ == "__main__":
    sys.exit(gbench.main("task_create_await", run_batch, ops=100_000, quick_ops=10_000))
