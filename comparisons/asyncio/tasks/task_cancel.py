"""task_cancel: start a task that sleeps for an hour, cancel it, await it; N times.

One op = one cycle: ``loop.create_task(sleep_an_hour())``; ``await
asyncio.sleep(0)`` (one turn, in which the sleeper's first step arms its
timer); ``sleeper.cancel()`` (which cancels the future it waits on, and so
its timer); ``await sleeper``, catching the CancelledError.  Three turns per
op (the sleeper's first step; its wakeup, which throws CancelledError into
it; the parent's wakeup), each with asyncio's selector poll (epoll_wait with
timeout 0), as looplab's stage row does on epoll.  N = 20,000 (2,000 with
--quick).
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


async def sleep_an_hour():
    await asyncio.sleep(3600)


async def cancel_cycles(loop, times):
    cancelled = 0
    for _ in range(times):
        sleeper = loop.create_task(sleep_an_hour())
        await asyncio.sleep(0)  # the sleeper starts, and waits for its timer
        sleeper.cancel()
        try:
            await sleeper
        except asyncio.CancelledError:
            cancelled += 1
    return cancelled


def run_batch(loop, ops):
    loop.run_until_complete(cancel_cycles(loop, ops))


if __name__ == "__main__":
    sys.exit(gbench.main("task_cancel", run_batch, ops=20_000, quick_ops=2_000))
