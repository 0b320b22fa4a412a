"""create_task() on a group not entered yet, and on a group whose block has ended, is a
RuntimeError with asyncio's message, which shows repr(group). The refused coroutine never runs
(3.13 closes it; 3.12 leaves it to a "never awaited" RuntimeWarning on stderr)."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def child(name):
    say_at(f"{name} runs")


async def main():
    group = asyncio.TaskGroup()
    say_at(f"before: {group!r}")
    try:
        group.create_task(child("too early"))
    except RuntimeError as error:
        say_at(f"RuntimeError: {error}")
    async with group:
        group.create_task(child("in time"))
        say_at(f"inside: {group!r}")
    say_at(f"after: {group!r}")
    try:
        group.create_task(child("too late"))
    except RuntimeError as error:
        say_at(f"RuntimeError: {error}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
