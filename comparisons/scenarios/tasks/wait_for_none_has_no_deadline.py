"""wait_for(aw, None) has no deadline: a task is awaited however long it takes, and a coroutine
runs inline in the awaiting task, which is the only task there is."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def slow(delay):
    await asyncio.sleep(delay)
    return 1


async def counts_tasks():
    await asyncio.sleep(1)
    return len(asyncio.all_tasks())


async def main():
    task = asyncio.create_task(slow(3600))
    say_at(f"task after an hour -> {await asyncio.wait_for(task, None)}")
    none = None
    say_at(f"tasks seen by the coroutine -> {await asyncio.wait_for(counts_tasks(), none)}")
    limit = 2
    try:
        await asyncio.wait_for(slow(5), limit)
    except TimeoutError:
        say_at("a delay that is not None is a deadline -> TimeoutError")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
