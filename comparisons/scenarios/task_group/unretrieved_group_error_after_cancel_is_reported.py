"""A task that swallows a cancellation and then fails is still reported when nobody retrieves its
error, as is the ExceptionGroup of a task whose TaskGroup cancelled it: its repr lists the
group's exceptions."""
import asyncio
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def stubborn():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        say_at("stubborn swallowed its cancellation")
    raise ValueError("after cancel")


async def boom():
    await asyncio.sleep(0.01)
    raise ValueError("one")


async def grouped():
    async with asyncio.TaskGroup() as group:
        group.create_task(boom())
        await asyncio.sleep(1)


async def main():
    loop = asyncio.get_running_loop()

    def handler(loop, context):
        say_at(f"handler: {context['message']}")
        say_at(f"exception: {context['exception']!r}")

    loop.set_exception_handler(handler)
    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.sleep(0.02)
    say_at("dropping the stubborn task")
    del task
    group = asyncio.create_task(grouped())
    await asyncio.sleep(0.02)
    say_at("dropping the grouped task")
    del group
    gc.collect()  # the task, its group and its frame form a cycle
    say_at("done")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
