"""A coroutine awaited before still becomes a task, which takes its Task-N, and fails at its first
step with "cannot reuse already awaited coroutine"; gather() and shield() of one fail the same
way, when awaited."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def one():
    return 1


async def main():
    coro = one()
    value = await coro
    say_at(f"awaited: {value}")
    task = asyncio.create_task(coro)
    say_at(task.get_name() + (" done" if task.done() else " pending"))
    await asyncio.sleep(0)
    say_at(f"done: {task.done()}, {task.exception()!r}")
    try:
        await task
    except RuntimeError as error:
        say_at(f"await: {error}")
    again = one()
    await again
    outcomes = asyncio.gather(again, return_exceptions=True)
    await outcomes
    say_at(repr(outcomes))
    shielded = one()
    await shielded
    outer = asyncio.shield(shielded)
    try:
        await outer
    except RuntimeError as error:
        say_at(f"shield: {error}")
    following = asyncio.create_task(one())
    say_at("next: " + following.get_name())
    await following


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
