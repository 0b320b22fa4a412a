"""Cancelling a task that awaits another task cancels the inner one too (it is the future waited
for)."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def say(what):
    print(f"turn {turn}: {what}")


def run_turns(loop, count):
    global turn
    for _ in range(count):
        turn += 1
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


async def inner():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError as error:
        say(f"inner got CancelledError('{error}')")
        raise


async def outer(task):
    try:
        await task
    except asyncio.CancelledError as error:
        say(f"outer got CancelledError('{error}')")
        raise


def scenario():
    loop = new_virtual_loop()
    inner_task = loop.create_task(inner())
    outer_task = loop.create_task(outer(inner_task))
    run_turns(loop, 1)
    say(f"outer.cancel('from outside') -> {outer_task.cancel('from outside')}")
    say(f"inner.cancelling() -> {inner_task.cancelling()}, inner.done() -> {inner_task.done()}")
    run_turns(loop, 2)
    say(f"inner cancelled: {inner_task.cancelled()}, outer cancelled: {outer_task.cancelled()}")
    loop.close()


scenario()
