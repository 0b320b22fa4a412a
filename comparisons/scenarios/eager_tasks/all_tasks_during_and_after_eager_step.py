"""all_tasks() includes an eager task during its eager step, and no longer once it has
finished there."""
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


async def child(loop):
    tasks = asyncio.all_tasks(loop)
    say(f"during the step: all_tasks: {len(tasks)}; the child among them: "
        f"{asyncio.current_task() in tasks}")


async def main(loop):
    task = loop.create_task(child(loop))
    tasks = asyncio.all_tasks(loop)
    say(f"after create_task(): child done: {task.done()}; all_tasks: {len(tasks)}; "
        f"the child among them: {task in tasks}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
