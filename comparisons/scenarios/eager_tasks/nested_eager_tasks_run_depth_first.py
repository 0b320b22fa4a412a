"""Eager tasks nest: a task created in another's eager step runs its own first step at once,
so a chain of eager tasks runs depth first inside the outermost create_task()."""
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


async def nested(loop, depth):
    say(f"enter {depth}")
    below = 0
    if depth > 0:
        below = await loop.create_task(nested(loop, depth - 1))
    say(f"leave {depth}")
    return below + 1


async def main(loop):
    task = loop.create_task(nested(loop, 2))
    say(f"create_task() returned; done: {task.done()}, result {task.result()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
