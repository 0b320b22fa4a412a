"""await create_task(child()) costs two turns: the child's first step, then the parent's wakeup."""
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


async def child():
    say("child runs")
    return 7


async def parent():
    say("parent creates the child and awaits it")
    value = await asyncio.create_task(child())
    say(f"parent resumes with {value}")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(parent())
    run_turns(loop, 3)
    say(f"parent done: {task.done()}")
    loop.close()


scenario()
