"""shutdown() (new in 3.13) on a full queue with a blocked putter: the putter is woken and
raises QueueShutDown, its item dropped, and so does every later put. Getters still get the
items left; once the queue is empty they raise QueueShutDown instead of waiting. join()
still waits for a task_done() per item put."""
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
    except asyncio.QueueShutDown:
        say(f"{name} QueueShutDown; item {item} dropped")
        return
    say(f"{name} put {item}")


async def getter(name, queue):
    try:
        item = await queue.get()
    except asyncio.QueueShutDown:
        say(f"{name} QueueShutDown")
        return
    say(f"{name} got {item}")
    queue.task_done()


async def joiner(queue):
    await queue.join()
    say("join() returns")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue(maxsize=2)
    queue.put_nowait(1)
    queue.put_nowait(2)
    loop.create_task(putter("p", queue, 3))
    loop.create_task(joiner(queue))
    run_turns(loop, 1)
    queue.shutdown()
    try:
        queue.put_nowait(4)
    except asyncio.QueueShutDown:
        say("shutdown(); put_nowait(4) -> QueueShutDown")
    run_turns(loop, 1)
    for name in ("g1", "g2", "g3"):
        loop.create_task(getter(name, queue))
    run_turns(loop, 1)
    try:
        queue.get_nowait()
    except asyncio.QueueShutDown:
        say("get_nowait() -> QueueShutDown, not QueueEmpty")
    run_turns(loop, 1)
    loop.close()


scenario()
