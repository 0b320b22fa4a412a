"""A coroutine that catches CancelledError and returns: the task is not cancelled, cancelling()
stays 1."""
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
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        say("body caught CancelledError, returns 7")
    return 7


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(body())
    run_turns(loop, 1)
    say(f"cancel() -> {task.cancel()}")
    run_turns(loop, 1)
    say(f"cancelled() -> {task.cancelled()}, result() -> {task.result()}, "
        f"cancelling() -> {task.cancelling()}")
    loop.close()


scenario()
