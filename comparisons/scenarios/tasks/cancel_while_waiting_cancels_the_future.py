"""Cancelling a task that waits for a future cancels that future; the task sees CancelledError a
turn later."""
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


async def body(future):
    say("body awaits the future")
    try:
        await future
    except asyncio.CancelledError as error:
        say(f"body caught CancelledError('{error}')")
        raise


def scenario():
    loop = new_virtual_loop()
    future = loop.create_future()
    task = loop.create_task(body(future))
    run_turns(loop, 1)
    say(f"task.cancel('stop') -> {task.cancel('stop')}")
    say(f"future.cancelled() -> {future.cancelled()}, task.done() -> {task.done()}")
    run_turns(loop, 1)
    say(f"task.cancelled() -> {task.cancelled()}")
    loop.close()


scenario()
