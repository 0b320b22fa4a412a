"""TaskGroup: cancelling the parent task cancels every child, and the CancelledError leaves the
block only once every child has ended, the one that cleans up for 1 s too.
(gather_awaiter_cancelled_leaves_cleanup_running: the same with gather().)"""
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


async def parent():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(fast())
            group.create_task(slow())
    except asyncio.CancelledError:
        say_at("parent: CancelledError out of the group")
        raise


async def main():
    loop = asyncio.get_running_loop()
    task = loop.create_task(parent())
    await asyncio.sleep(1)
    say_at("main cancels the parent")
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        say_at(f"main: the parent is cancelled: {task.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
