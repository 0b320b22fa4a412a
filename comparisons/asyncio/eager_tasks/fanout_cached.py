"""fanout_cached: one task gathers 100 lookups, each a new task; 90 of them hit a cache.

One op = one child task: created with loop.create_task, run until it returns,
its result collected by asyncio.gather.  Child i looks key i up in a cache
that holds 90 keys of every 100 (those with i % 10 != 9): a hit returns the
cached value at once, without suspending; a miss asks the "server", a bare
``await asyncio.sleep(0)`` (one turn), and returns.  N = 100,000 children =
1,000 rounds of 100 (10,000 = 100 rounds with --quick).

Tasks start lazily (asyncio's default): every child's first step is a
callback of the next turn, hit or miss.  A round takes four turns (the
children's first steps; gather's callbacks for the hits and the misses'
second steps; the misses' callbacks; the parent's wakeup), each with
asyncio's selector poll (epoll_wait with timeout 0), 4 per 100 ops.
fanout_cached_eager is the same with eager tasks.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

FANOUT = 100
CACHE = {key: 2 * key for key in range(FANOUT) if key % 10 != 9}  # 90 keys of 100


async def lookup(key):
    value = CACHE.get(key)
    if value is not None:
        return value  # a hit: done without waiting for anything
    await asyncio.sleep(0)  # a miss: the server answers a turn later
    return 2 * key


async def gather_rounds(loop, rounds):
    total = 0
    for _ in range(rounds):
        values = await asyncio.gather(*[loop.create_task(lookup(key)) for key in range(FANOUT)])
        total += sum(values)
    return total


def batch_runner(eager):
    """run_batch for gbench: lazy tasks, or eager ones (asyncio.eager_task_factory)."""
    def run_batch(loop, ops):
        if eager:
            loop.set_task_factory(asyncio.eager_task_factory)
        loop.run_until_complete(gather_rounds(loop, ops // FANOUT))
    return run_batch


def main(name, eager):
    return gbench.main(name, batch_runner(eager), ops=100_000, quick_ops=10_000)


if __name__ == "__main__":
    sys.exit(main("fanout_cached", eager=False))
