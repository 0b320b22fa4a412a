"""gather() over children that all finished in their eager steps is done when it returns:
awaiting it costs no turn, and the whole fan-out takes one turn."""
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


async def square(number):
    return number * number


async def main(loop):
    children = [loop.create_task(square(number)) for number in (1, 2, 3)]
    gathering = asyncio.gather(*children)
    say(f"gather() returned; done: {gathering.done()}")
    say(f"awaited {await gathering}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
