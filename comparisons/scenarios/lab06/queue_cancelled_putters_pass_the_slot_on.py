"""Cancelled putters never keep a slot from the others, and their items are never put. A
putter cancelled while it waits is passed over by the get that follows. A putter that a
get woke, cancelled before it resumes, leaves the line and wakes the next putter, since
the slot is still free."""
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


async def putter(name, queue, item):
    try:
        await queue.put(item)
    except asyncio.CancelledError:
        say(f"{name} cancelled; qsize() -> {queue.qsize()}")
        raise
    say(f"{name} put {item}")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue(maxsize=1)
    queue.put_nowait(0)
    tasks = {name: loop.create_task(putter(name, queue, item))
             for item, name in enumerate(("a", "b", "c", "d"), start=1)}
    run_turns(loop, 1)
    say(f"full() -> {queue.full()}; four putters wait")
    tasks["a"].cancel()
    say(f"a cancelled while waiting; get_nowait() -> {queue.get_nowait()} passes it over and wakes b")
    run_turns(loop, 1)
    say(f"get_nowait() -> {queue.get_nowait()} wakes c; c.cancel() -> {tasks['c'].cancel()} before c resumes")
    run_turns(loop, 1)
    run_turns(loop, 1)
    say(f"get_nowait() -> {queue.get_nowait()}; 1 and 3 were never put: {queue}")
    loop.close()


scenario()
