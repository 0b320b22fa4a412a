"""cancel() after the awaited future completed but before the wakeup: the result is dropped,
CancelledError thrown."""
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
        value = await future
        say(f"body got {value}")
    except asyncio.CancelledError:
        say("body got CancelledError instead of the result")
        raise


def scenario():
    loop = new_virtual_loop()
    future = loop.create_future()
    task = loop.create_task(body(future))
    run_turns(loop, 1)
    future.set_result(99)
    say("future.set_result(99); the wakeup is queued")
    say(f"task.cancel() -> {task.cancel()}, future.cancelled() -> {future.cancelled()}")
    run_turns(loop, 1)
    say(f"task.cancelled() -> {task.cancelled()}, future.result() -> {future.result()}")
    loop.close()


scenario()
