"""A getter woken by a put looks again when it resumes, a turn later. If the item was taken
meanwhile, it waits again, at the back of the line: the next item goes to the getter that
was behind it."""
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


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue()
    loop.create_task(getter("a", queue))
    loop.create_task(getter("b", queue))
    run_turns(loop, 1)
    say(f"waiting: {queue}")
    queue.put_nowait(1)
    say(f"put_nowait(1) wakes a; get_nowait() -> {queue.get_nowait()} before a resumes")
    run_turns(loop, 1)
    say(f"a waits again, behind b: {queue}")
    queue.put_nowait(2)
    run_turns(loop, 1)
    queue.put_nowait(3)
    run_turns(loop, 1)
    say(f"done: {queue}")
    loop.close()


scenario()
