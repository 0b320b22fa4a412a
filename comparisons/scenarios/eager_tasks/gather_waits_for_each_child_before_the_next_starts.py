"""gather() of coroutines wraps them one at a time and adds its done callback to each child
before it makes the next. Under the eager factory the next child's first step runs inside
gather(), so a callback that step adds to an earlier child comes after gather's: when that
child finishes, gather's callback runs first, and the outer future is done when the later
callback looks."""
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


task_a = None  # a's task, from current_task()
outer = None  # what gather() returned


async def a():
    global task_a
    task_a = asyncio.current_task()
    say("a: first step, then sleep(0)")
    await asyncio.sleep(0)
    say("a: returns 1")
    return 1


async def b():
    say("b: adds a done callback to a's task, and returns 2")
    task_a.add_done_callback(lambda _: say(f"b's callback on a: gather done: {outer.done()}"))
    return 2


async def main():
    global outer
    outer = asyncio.gather(a(), b())
    say(f"awaited {await outer}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(main())  # the loop is not running yet: lazy
    run_turns(loop, 4)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
