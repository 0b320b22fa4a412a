"""shutdown(immediate=True) (new in 3.13) on a full queue: the item left is discarded and
counted as a task done, which releases join(); the blocked putter is woken and raises
QueueShutDown, its item dropped. Both resume in the next turn, join() first: it was woken
first. From then on a get raises QueueShutDown at once, and task_done() has nothing left."""
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


async def joiner(queue):
    await queue.join()
    say("join() returns")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue(maxsize=1)
    queue.put_nowait(1)
    loop.create_task(putter("p", queue, 2))
    loop.create_task(joiner(queue))
    run_turns(loop, 1)
    say(f"p waits: full() -> {queue.full()}")
    queue.shutdown(immediate=True)
    say(f"shutdown(immediate=True): empty() -> {queue.empty()}; {queue}")
    run_turns(loop, 1)
    loop.create_task(getter("g", queue))
    run_turns(loop, 1)
    try:
        queue.task_done()
    except ValueError as error:
        say(f"task_done() -> ValueError: {error}")
    loop.close()


scenario()
