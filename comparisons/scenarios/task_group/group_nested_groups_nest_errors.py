"""A group inside a group: the inner group's ExceptionGroup is the outer body's error, so it
cancels the outer group's child and comes out nested in the outer ExceptionGroup."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def worker(name, delay):
    try:
        await asyncio.sleep(delay)
    except asyncio.CancelledError:
        say_at(f"{name} cancelled")
        raise
    say_at(f"{name} finished")


async def failing():
    await asyncio.sleep(1)
    say_at("inner child raises ValueError('inner')")
    raise ValueError("inner")


def show(error, depth):
    say_at("  " * depth + f"{type(error).__name__}: {error}")
    if isinstance(error, ExceptionGroup):
        for each in error.exceptions:
            show(each, depth + 1)


async def main():
    try:
        async with asyncio.TaskGroup() as outer:
            outer.create_task(worker("outer child", 5))
            async with asyncio.TaskGroup() as inner:
                inner.create_task(failing())
                await asyncio.sleep(10)
    except ExceptionGroup as error:
        show(error, 0)


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
