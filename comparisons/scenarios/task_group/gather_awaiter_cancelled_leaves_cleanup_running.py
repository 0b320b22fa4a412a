"""gather(): cancelling the task that awaits it cancels every child, and the awaiter gets its
CancelledError as soon as one child has ended cancelled, while another is still cleaning up.
(group_parent_cancelled_waits_for_cleanup: the same with a TaskGroup.)"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def fast():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("fast cancelled")
        raise
    return 0


async def slow():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        await asyncio.sleep(1)  # cleaning up
        say_at("slow cleaned up after its cancellation")
        raise
    return 0


async def waiter(fast_task, slow_task):
    try:
        await asyncio.gather(fast_task, slow_task)
    except asyncio.CancelledError:
        say_at(f"waiter: CancelledError out of gather(); slow done? {slow_task.done()}")
        raise


async def main():
    loop = asyncio.get_running_loop()
    fast_task = loop.create_task(fast())
    slow_task = loop.create_task(slow())
    task = loop.create_task(waiter(fast_task, slow_task))
    await asyncio.sleep(1)
    say_at("main cancels the waiter")
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        say_at(f"main: the waiter is cancelled: {task.cancelled()}")
    await asyncio.sleep(2)  # meanwhile slow ends


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
