"""During the eager step current_task() is the new task; after create_task() it is the
creator again: the creating task, or None in a plain callback."""
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


seen = []


async def child():
    seen.append(asyncio.current_task())


async def main(loop):
    me = asyncio.current_task()
    task = loop.create_task(child())
    say(f"from a task: during the step, current_task() was the child: {seen[-1] is task}")
    say(f"from a task: after create_task(), it is the creator: {asyncio.current_task() is me}")


def from_callback(loop):
    task = loop.create_task(child())
    say(f"from a callback: during the step, current_task() was the child: {seen[-1] is task}")
    say(f"from a callback: after create_task(), it is {asyncio.current_task()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    loop.call_soon(from_callback, loop)
    run_turns(loop, 1)
    loop.close()


scenario()
