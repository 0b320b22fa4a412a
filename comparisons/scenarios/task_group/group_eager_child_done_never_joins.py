"""With eager_task_factory a child's first step runs inside create_task(): a child that finishes
there is done before create_task() returns and never joins the group's tasks (repr() counts
none); one that suspends joins them, and the block waits for it."""
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


async def quick():
    say("quick child runs and returns")
    return 1


async def slow():
    say("slow child runs until its first await")
    await asyncio.sleep(0)
    say("slow child finishes")


async def main():
    async with asyncio.TaskGroup() as group:
        task = group.create_task(quick())
        say(f"quick done: {task.done()}; {group!r}")
        group.create_task(slow())
        say(f"slow created; {group!r}")
    say("the block ends")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main())  # the loop is not running yet: lazy
    run_turns(loop, 4)
    loop.close()


scenario()
