"""The group stops its body by cancelling the parent when a child fails, and takes that back:
once the ExceptionGroup is out, the parent's cancelling() is 0 and its later awaits run."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def failing():
    await asyncio.sleep(1)
    say_at("child raises ValueError('child')")
    raise ValueError("child")


async def main():
    me = asyncio.current_task()
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(failing())
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                say_at(f"body cancelled by the group; cancelling() = {me.cancelling()}")
                raise
    except ExceptionGroup as error:
        say_at(f"{type(error).__name__}: {error}")
        say_at(f"cancelling() = {me.cancelling()}")
    await asyncio.sleep(1)
    say_at("a later await ran")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
