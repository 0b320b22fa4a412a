"""The body's own error cancels the children. A child that fails as it is cancelled comes first
in the ExceptionGroup; the body's error, though raised before the child's, comes last."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def clumsy():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("clumsy child cancelled, raises ValueError('cleanup')")
        raise ValueError("cleanup")


async def main():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(clumsy())
            await asyncio.sleep(1)
            say_at("body raises TypeError('body')")
            raise TypeError("body")
    except ExceptionGroup as error:
        say_at(f"{type(error).__name__}: {error}")
        for each in error.exceptions:
            say_at(f"  {type(each).__name__}: {each}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
