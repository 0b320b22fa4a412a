"""taskgroup_fanout: one task runs TaskGroups of 100 children that return at once, one group after another.

One op = one child task: created with ``group.create_task()`` in the block of
``async with asyncio.TaskGroup() as group:``, run until it returns (at once:
no sleep(0), so that the group's own cost shows, as gather_fanout measures
gather()'s), its end seen by the group (its done callback, _on_task_done);
the block waits for all 100, then the parent adds up their results.
N = 100,000 children = 1,000 groups (10,000 = 100 groups with --quick).

Tasks start lazily (asyncio's default). A group takes three turns (the
children's steps; the group's done callbacks, the last of which wakes
__aexit__; the parent's wakeup, which ends the block and opens the next
group), each with asyncio's selector poll (epoll_wait with timeout 0), 3 per
100 ops.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

CHILDREN = 100
REQUIRES_PYTHON = "3.11"  # asyncio.TaskGroup


async def plus_one(x):
    return x + 1


async def group_rounds(groups):
    total = 0
    for _ in range(groups):
        async with asyncio.TaskGroup() as group:
            children = [group.create_task(plus_one(i)) for i in range(CHILDREN)]
        total += sum(child.result() for child in children)  # every child is done
    return total


def run_batch(loop, ops):
    loop.run_until_complete(group_rounds(ops // CHILDREN))


if __name__ == "__main__":
    sys.exit(gbench.main("taskgroup_fanout", run_batch, ops=100_000, quick_ops=10_000))
