"""asyncio.as_completed(): results in the order the futures complete, an
exception where its future failed; with a timeout, each result not there in
time is a TimeoutError. 3.13's async for gives the futures themselves."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def job(name, delay, fail=False):
    await asyncio.sleep(delay)
    if fail:
        raise ValueError(name)
    return name


async def main(loop):
    tasks = [loop.create_task(job("slow", 3)), loop.create_task(job("fast", 1)),
             loop.create_task(job("bad", 2, True))]
    for next_one in asyncio.as_completed(tasks):
        try:
            value = await next_one
            print(f"t={loop.time():.3f} got {value}")
        except ValueError as e:
            print(f"t={loop.time():.3f} got ValueError: {e}")
    tasks = [loop.create_task(job("quick", 1)), loop.create_task(job("late", 5))]
    for next_one in asyncio.as_completed(tasks, timeout=2):
        try:
            value = await next_one
            print(f"t={loop.time():.3f} got {value}")
        except TimeoutError:
            print(f"t={loop.time():.3f} got TimeoutError")
    await tasks[1]
    print(f"t={loop.time():.3f} late finished anyway: {tasks[1].result()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main(loop))
    loop.close()


scenario()
