"""Task(coro, loop=loop, eager_start=True) starts eagerly without any task factory; the
loop's create_task() stays lazy."""
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


async def child(label):
    say(f"{label} child: first step")


async def main(loop):
    lazy = loop.create_task(child("lazy"))
    eager = asyncio.Task(child("eager"), loop=loop, eager_start=True)
    say(f"main: after both; lazy done: {lazy.done()}, eager done: {eager.done()}")


def scenario():
    loop = new_virtual_loop()
    say(f"task factory: {loop.get_task_factory()}")
    loop.create_task(main(loop))
    run_turns(loop, 2)
    loop.close()


scenario()
