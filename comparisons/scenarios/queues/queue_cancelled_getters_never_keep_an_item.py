"""Cancelled getters never keep an item from the others. A getter cancelled while it waits
is passed over by the put that follows. A getter that a put woke, cancelled before it
resumes, leaves the line and wakes the next getter, since the item is still there."""
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
    try:
        item = await queue.get()
    except asyncio.CancelledError:
        say(f"{name} cancelled; qsize() -> {queue.qsize()}")
        raise
    say(f"{name} got {item}")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue()
    tasks = {name: loop.create_task(getter(name, queue)) for name in ("a", "b", "c", "d")}
    run_turns(loop, 1)
    say(f"waiting: {queue}")
    tasks["a"].cancel()
    queue.put_nowait(1)
    say("a cancelled while waiting; put_nowait(1) passes it over and wakes b")
    run_turns(loop, 1)
    queue.put_nowait(2)
    say(f"put_nowait(2) wakes c; c.cancel() -> {tasks['c'].cancel()} before c resumes")
    run_turns(loop, 1)
    say(f"c woke d, the item being still there; qsize() -> {queue.qsize()}")
    run_turns(loop, 1)
    say(f"done: {queue}")
    loop.close()


scenario()
