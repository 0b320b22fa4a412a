"""A cancelled gather() whose last child swallowed the cancellation and returned still fails
with CancelledError, carrying that task's own _cancel_message: the message of a cancel() that
found the task without a future to cancel (so the task kept it, to throw in at its next step),
none if cancel() was passed on to the future the task awaited (the future kept it)."""
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


async def swallow(name, delay):
    """Waits `delay` seconds (0: a bare yield, no future to cancel); swallows a cancellation."""
    try:
        await asyncio.sleep(delay)
    except asyncio.CancelledError as error:
        say(f"{name}: swallowed CancelledError('{error}')")
    return name


async def cancel_gather(name, delay, second_message=None):
    child = asyncio.create_task(swallow(name, delay))
    await asyncio.sleep(0)  # the child is now suspended in its sleep
    outer = asyncio.gather(child)
    if second_message is not None:
        child.cancel(second_message)
    say(f"{name}: cancel('{name}') -> {outer.cancel(name)}")
    try:
        await outer
    except asyncio.CancelledError as error:
        say(f"{name}: gather: CancelledError('{error}'), child cancelled: {child.cancelled()}")


async def main():
    await cancel_gather("yielding", 0)  # the task keeps the message
    await cancel_gather("sleeping", 1)  # the sleep's future takes it
    await cancel_gather("twice", 1, second_message="first")  # the future takes the first


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main())
    run_turns(loop, 14)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
