"""Cancelling a gather(return_exceptions=True) cancels its children; once they are all done, it
fails with the CancelledError of its last child in argument order (asyncio reads it from its
loop variable): that child's own error if it was cancelled, one without a message if it had
finished before the cancel."""
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


async def slow():
    await asyncio.sleep(1)
    return 1


async def quick():
    return 2


async def cancel_gather(name, quick_last):
    """gather(first, second, return_exceptions=True), cancelled once `quick` is done."""
    waits = asyncio.create_task(slow())
    finishes = asyncio.create_task(quick())
    if quick_last:
        outer = asyncio.gather(waits, finishes, return_exceptions=True)
    else:
        outer = asyncio.gather(finishes, waits, return_exceptions=True)
    await asyncio.sleep(0)
    say(f"{name}: quick done: {finishes.done()}, cancel('{name}') -> {outer.cancel(name)}")
    try:
        await outer
    except asyncio.CancelledError as error:
        say(f"{name}: CancelledError('{error}')")


async def main():
    await cancel_gather("quick_last", True)
    await cancel_gather("slow_last", False)


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main())
    run_turns(loop, 10)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
