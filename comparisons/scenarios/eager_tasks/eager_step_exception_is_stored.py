"""An exception raised in the eager step is stored in the task, as in any step: create_task()
returns normally, with the task done."""
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


async def fails():
    say("child raises ValueError")
    raise ValueError("boom")


async def main(loop):
    task = loop.create_task(fails())
    say(f"create_task() returned; child done: {task.done()}")
    error = task.exception()
    say(f"child's exception: {type(error).__name__}: {error}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
