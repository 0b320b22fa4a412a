"""shield(coro) makes the coroutine a task that nobody holds: cancelling the task that awaits the
shield leaves that task running to its end."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def inner_work():
    await asyncio.sleep(1)
    say_at("inner finishes")
    return 5


async def outer():
    try:
        return await asyncio.shield(inner_work())
    except asyncio.CancelledError:
        say_at("outer task cancelled")
        raise


async def main():
    task = asyncio.create_task(outer())
    await asyncio.sleep(0.5)
    say_at(f"tasks -> {len(asyncio.all_tasks())}")
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    await asyncio.sleep(1)
    say_at(f"tasks -> {len(asyncio.all_tasks())}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
