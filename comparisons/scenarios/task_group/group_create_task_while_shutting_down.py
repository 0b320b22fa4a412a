"""Once a child has failed the group is shutting down: a cancelled sibling that tries to start a
helper gets RuntimeError, with repr(group) showing the live child, the error and "cancelling"."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def helper():
    say_at("helper runs")


async def sibling(group):
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("sibling cancelled, tries to start a helper")
        try:
            group.create_task(helper())
        except RuntimeError as error:
            say_at(f"RuntimeError: {error}")
        raise


async def failing():
    await asyncio.sleep(1)
    say_at("child raises ValueError('child')")
    raise ValueError("child")


async def main():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(sibling(group))
            group.create_task(failing())
    except ExceptionGroup as error:
        say_at(f"{type(error).__name__}: {error}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
