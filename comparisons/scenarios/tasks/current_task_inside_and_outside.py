"""current_task() is the task whose step runs, inside awaited coroutines too; None in plain
callbacks."""
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


async def who():
    return asyncio.current_task()


async def body(loop):
    me = asyncio.current_task()
    say(f"in the task: current_task() is the task: {me is task}")
    say(f"in an awaited coroutine: {await who() is task}")
    loop.call_soon(lambda: say(f"in a callback: {asyncio.current_task(loop)}"))
    await asyncio.sleep(0)
    count = len(asyncio.all_tasks(loop))
    say(f"after a yield: {asyncio.current_task() is task}; all_tasks: {count}")


def scenario():
    global task
    loop = new_virtual_loop()
    say(f"outside: {asyncio.current_task(loop)}")
    task = loop.create_task(body(loop))
    say(f"all_tasks before the first step: {len(asyncio.all_tasks(loop))}")
    run_turns(loop, 2)
    say(f"all_tasks at the end: {len(asyncio.all_tasks(loop))}")
    loop.close()


task = None
scenario()
