"""wait_for(task, 1): on expiry the task is cancelled and awaited (its cleanup runs), then
TimeoutError."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def slow():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("inner cleans up")
        await asyncio.sleep(0.5)
        say_at("inner cleanup done")
        raise
    return 1


async def quick():
    await asyncio.sleep(0.5)
    return 2


async def main():
    task = asyncio.create_task(slow())
    try:
        await asyncio.wait_for(task, 1)
    except TimeoutError:
        say_at(f"TimeoutError; inner cancelled: {task.cancelled()}")
    value = await asyncio.wait_for(asyncio.create_task(quick()), 1)
    say_at(f"in time: {value}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
