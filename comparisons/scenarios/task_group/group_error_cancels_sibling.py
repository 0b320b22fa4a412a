"""TaskGroup: the first child's error cancels the sibling, and the block raises an ExceptionGroup
once every child has ended. (gather_error_leaves_sibling_running: the same with gather().)"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def sibling():
    try:
        await asyncio.sleep(2)
    except asyncio.CancelledError:
        say_at("sibling cancelled")
        raise
    say_at("sibling finished")
    return 2


async def failing():
    await asyncio.sleep(1)
    say_at("failing child raises ValueError('boom')")
    raise ValueError("boom")


async def main():
    try:
        async with asyncio.TaskGroup() as group:
            other = group.create_task(sibling())
            group.create_task(failing())
    except ExceptionGroup as error:
        caught = type(error).__name__
        say_at(f"group raised {caught}: {error}")
        say_at(f"sibling done? {other.done()}")
    fate = "sibling-cancelled" if other.cancelled() else "sibling-finished"
    say_at(f"outcome: {(caught, fate)}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
