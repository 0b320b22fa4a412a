"""A coroutine that raises CancelledError on its own ends its task cancelled; nobody called
cancel()."""
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


async def body():
    await asyncio.sleep(0)
    say("body raises CancelledError('by itself')")
    raise asyncio.CancelledError("by itself")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(body())
    run_turns(loop, 2)
    say(f"cancelled() -> {task.cancelled()}, cancelling() -> {task.cancelling()}")
    try:
        task.result()
    except asyncio.CancelledError as error:
        say(f"result() raises CancelledError('{error}')")
    loop.close()


scenario()
