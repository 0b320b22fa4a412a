"""Children that fail in the same turn are all collected, in the order they failed, and a slower
one is cancelled. str() of the group (what() in C++) says how many there are."""
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


async def failing(error):
    await asyncio.sleep(1)
    say_at(f"raises {type(error).__name__}: {error}")
    raise error


async def main():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(worker("slow", 2))
            group.create_task(failing(ValueError("a")))
            group.create_task(failing(TypeError("b")))
    except ExceptionGroup as error:
        say_at(f"message: {error.message}")
        say_at(f"printed: {error}")
        for each in error.exceptions:
            say_at(f"  {type(each).__name__}: {each}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
