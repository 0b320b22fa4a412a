"""An eager task's first step runs inside create_task(), between the creator's before and
after; once it suspends it goes on as a lazy task, resuming in a later turn."""
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
    say("child: first step")
    await asyncio.sleep(0)
    say("child: resumes")
    return 7


async def main(loop):
    say("main: before create_task()")
    task = loop.create_task(child())
    say(f"main: after create_task(); child done: {task.done()}")
    say(f"main: awaited {await task}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 3)
    loop.close()


scenario()
