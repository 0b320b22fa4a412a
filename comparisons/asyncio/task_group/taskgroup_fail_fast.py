"""taskgroup_fail_fast: in a TaskGroup, one child fails at once and its 100 sleeping siblings are cancelled.

One task runs groups one after another. Each block creates 100 siblings that
``await asyncio.sleep(3600)``, then one child that raises ValueError at its
first step. The failure cancels the siblings (and the parent, which
__aexit__ takes back), and the block raises an ExceptionGroup holding the
ValueError, which the parent catches (``except ExceptionGroup``).

One op = one sibling: created with ``group.create_task()``, started (its
sleep arms a timer), cancelled (its timer with it), woken with
CancelledError, its end seen by the group. N = 20,000 siblings = 200 groups
(2,000 = 20 groups with --quick).

Tasks start lazily (asyncio's default). A group takes five turns (the
children's first steps; the group's done callback for the failure, which
cancels the siblings and the parent; the siblings' wakeups and the parent's,
which waits again; the group's done callbacks, the last of which wakes
__aexit__; the parent's wakeup, which raises the ExceptionGroup), each with
asyncio's selector poll (epoll_wait with timeout 0), 5 per 100 ops.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

SIBLINGS = 100
REQUIRES_PYTHON = "3.11"  # asyncio.TaskGroup


async def sleep_an_hour():
    await asyncio.sleep(3600)


async def fail_at_once():
    raise ValueError("fail fast")


async def fail_fast_rounds(groups):
    errors = 0
    for _ in range(groups):
        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(SIBLINGS):
                    group.create_task(sleep_an_hour())
                group.create_task(fail_at_once())
        except ExceptionGroup as error:
            errors += len(error.exceptions)  # the one ValueError
    return errors


def run_batch(loop, ops):
    loop.run_until_complete(fail_fast_rounds(ops // SIBLINGS))


if __name__ == "__main__":
    sys.exit(gbench.main("taskgroup_fail_fast", run_batch, ops=20_000, quick_ops=2_000))
