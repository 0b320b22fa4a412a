"""Two cancel() calls while a task waits on one future deliver one CancelledError; cancelling() is
2."""
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
    try:
        await future
    except asyncio.CancelledError as error:
        say(f"body caught CancelledError('{error}')")
    await asyncio.sleep(0)
    say("body after sleep(0): no second CancelledError")
    return 5


def scenario():
    loop = new_virtual_loop()
    future = loop.create_future()
    task = loop.create_task(body(future))
    run_turns(loop, 1)
    say(f"cancel('first') -> {task.cancel('first')}, future cancelled: {future.cancelled()}")
    say(f"cancel('second') -> {task.cancel('second')}, cancelling() -> {task.cancelling()}")
    run_turns(loop, 2)
    say(f"done: {task.done()}, cancelled: {task.cancelled()}, result: {task.result()}, "
        f"cancelling() -> {task.cancelling()}")
    loop.close()


scenario()
