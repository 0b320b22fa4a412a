"""create_eager_task_factory(constructor) makes a factory that calls the constructor with
eager_start=True for every task the loop creates."""
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


def traced_task(coro, *, loop, name=None, context=None, eager_start=False):
    say(f"constructor: eager_start={eager_start}")
    return asyncio.Task(coro, loop=loop, name=name, context=context, eager_start=eager_start)


async def child():
    say("child: first step")


async def main(loop):
    task = loop.create_task(child())
    say(f"main: child done: {task.done()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.create_eager_task_factory(traced_task))
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
