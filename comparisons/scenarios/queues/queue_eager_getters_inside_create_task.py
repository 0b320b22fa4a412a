"""With the eager task factory, a getter's first step runs inside create_task(): one that
finds an item has it, and is done, before create_task() returns; one that finds the queue
empty is in line by then, and goes on as a lazy task, a turn after the put that wakes it."""
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


async def getter(name, queue):
    item = await queue.get()
    say(f"{name} got {item}")


async def main(loop, queue):
    a = loop.create_task(getter("a", queue))
    say(f"main: a.done() -> {a.done()}; {queue}")
    b = loop.create_task(getter("b", queue))
    say(f"main: b.done() -> {b.done()}; {queue}")
    queue.put_nowait(2)
    say(f"main: put_nowait(2) wakes b; qsize() -> {queue.qsize()}")
    await b
    say("main: awaited b")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    queue = asyncio.Queue()
    queue.put_nowait(1)
    # The loop is not running yet: main starts lazily, its children eagerly.
    loop.create_task(main(loop, queue))
    run_turns(loop, 3)
    loop.close()


scenario()
