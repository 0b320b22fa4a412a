"""Eager tasks: in the same fan-out, the three cache hits are done when create_task() returns
and never reach the loop; only the miss goes on as a task, and the parent resumes a turn earlier."""
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


CACHE = {"a": 1, "b": 2, "d": 4}


async def lookup(key):
    if key in CACHE:
        say(f"{key}: cache hit")
        return CACHE[key]  # returns without awaiting anything
    say(f"{key}: cache miss, asks the server")
    await asyncio.sleep(0)  # the server: one turn
    return 3


async def parent(loop):
    lookups = [loop.create_task(lookup(key)) for key in "abcd"]
    done = [task.done() for task in lookups]
    say(f"created 4 lookups; done: {done}; all_tasks: {len(asyncio.all_tasks(loop))}")
    values = await asyncio.gather(*lookups)
    say(f"parent resumes with {values}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(parent(loop))  # the loop is not running yet: lazy
    run_turns(loop, 5)
    say(f"parent done: {task.done()}")
    loop.close()


scenario()
