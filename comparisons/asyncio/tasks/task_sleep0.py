"""task_sleep0: 10,000 tasks, each awaiting asyncio.sleep(0) ten times.

One op = one task step (one call of Task.__step): a task takes 11, its first
(up to its first sleep(0)) and one after each of its ten yields, the last of
which returns.  N = 110,000 steps = 10,000 tasks (11,000 = 1,000 tasks with
--quick).  The batch time includes creating the tasks and finishing them;
the last task to finish stops the loop.

sleep(0) is a bare yield: no future, no timer, the task's next step is
queued with call_soon.  A turn runs every task's step, so the selector poll
that asyncio does once per turn (epoll_wait with timeout 0), like looplab's,
comes 11 times per batch and does not show.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

SLEEPS_PER_TASK = 10
STEPS_PER_TASK = SLEEPS_PER_TASK + 1


def run_batch(loop, ops):
    running = ops // STEPS_PER_TASK

    async def yield_ten_times():
        nonlocal running
        for _ in range(SLEEPS_PER_TASK):
            await asyncio.sleep(0)  # one bare yield
        running -= 1
        if not running:
            loop.stop()  # the last task to finish ends the batch

    for _ in range(running):
        loop.create_task(yield_ten_times())
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("task_sleep0", run_batch,
                         ops=10_000 * STEPS_PER_TASK, quick_ops=1_000 * STEPS_PER_TASK))
