"""Awaiting a coroutine runs it inline, in the same step of the same task: no turn."""
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


async def add_one(x):
    say(f"add_one({x}) runs")
    return x + 1


async def add_two(x):
    once = await add_one(x)
    return await add_one(once)


async def main():
    say("main starts")
    value = await add_two(0)
    say(f"main got {value}")
    return value


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main())
    run_turns(loop, 1)
    say(f"main done: {task.done()}, result {task.result()}")
    loop.close()


scenario()
