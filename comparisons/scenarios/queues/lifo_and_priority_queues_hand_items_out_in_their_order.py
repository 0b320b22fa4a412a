"""LifoQueue gives the newest item first, PriorityQueue the smallest, and items that compare equal
come out in heapq's order (not the order they were put in); a getter waiting on either is woken by
the next put, a turn later."""
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


class Job:
    """Ordered by priority only: two jobs of one priority compare equal."""

    def __init__(self, priority, name):
        self.priority = priority
        self.name = name

    def __lt__(self, other):
        return self.priority < other.priority


async def getter(queue):
    job = await queue.get()
    say(f"getter got {job.name}")


def scenario():
    loop = new_virtual_loop()
    lifo = asyncio.LifoQueue()
    for item in (3, 1, 2):
        lifo.put_nowait(item)
    say(f"LifoQueue gives {[lifo.get_nowait() for _ in range(3)]}")
    jobs = asyncio.PriorityQueue()
    for priority, name in ((2, "b1"), (1, "a1"), (2, "b2"), (1, "a2"), (2, "b3"), (0, "z")):
        jobs.put_nowait(Job(priority, name))
    say(f"PriorityQueue gives {[jobs.get_nowait().name for _ in range(6)]}")
    for name in "abcde":
        jobs.put_nowait(Job(5, name))
    say(f"five equal jobs come out as {[jobs.get_nowait().name for _ in range(5)]}")
    try:
        jobs.get_nowait()
    except asyncio.QueueEmpty:
        say("empty: QueueEmpty")
    loop.create_task(getter(jobs))
    run_turns(loop, 1)
    jobs.put_nowait(Job(1, "late"))
    say("put a job for the waiting getter")
    run_turns(loop, 1)
    loop.close()


scenario()
