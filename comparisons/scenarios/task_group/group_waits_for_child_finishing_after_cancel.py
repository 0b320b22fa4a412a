"""A child that catches its CancelledError, cleans up for 1 s and returns: the group waits for
it, and it ends with its value, not cancelled; only the other child's error is raised."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def failing():
    await asyncio.sleep(1)
    say_at("a raises ValueError('a')")
    raise ValueError("a")


async def stubborn():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("b cancelled, cleans up for 1 s")
        await asyncio.sleep(1)
        say_at("b returns 'partial'")
        return "partial"
    return "full"


async def main():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(failing())
            b = group.create_task(stubborn())
    except ExceptionGroup as error:
        say_at(f"{type(error).__name__}: {error}")
    say_at(f"b cancelled: {b.cancelled()}; result: {b.result()!r}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
