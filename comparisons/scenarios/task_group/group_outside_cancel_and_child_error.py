"""Cancelled from outside in the turn a child fails: the group raises its ExceptionGroup (errors
win over the cancellation), the parent's cancelling() stays 1, and its next await is cancelled:
the outside request is kept. CPython 3.12 raises the same group but loses that request: the next
await runs ("t=2.000 the next await ran")."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def child(parent):
    await asyncio.sleep(1)
    say_at("child cancels the parent, then raises ValueError('child')")
    parent.cancel()
    raise ValueError("child")


async def main():
    me = asyncio.current_task()
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(child(me))
            await asyncio.sleep(10)
    except ExceptionGroup as error:
        say_at(f"{type(error).__name__}: {error}")
        say_at(f"cancelling() = {me.cancelling()}")
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        say_at("the next await is cancelled")
        raise
    say_at("the next await ran")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main())
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        print(f"main cancelled: {task.cancelled()}")
    loop.close()


scenario()
