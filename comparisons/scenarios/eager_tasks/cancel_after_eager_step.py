"""cancel() on a task that finished in its eager step returns False and changes nothing; one
that suspended in it is cancelled as any waiting task."""
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


async def quick():
    return 1


async def slow():
    await asyncio.sleep(0)
    say("slow resumes")  # never printed: cancelled first


async def main(loop):
    finished = loop.create_task(quick())
    waiting = loop.create_task(slow())
    say(f"finished: cancel() -> {finished.cancel()}; result {finished.result()}")
    say(f"waiting: cancel() -> {waiting.cancel()}")
    try:
        await waiting
    except asyncio.CancelledError:
        say(f"waiting: cancelled {waiting.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 3)
    loop.close()


scenario()
