"""create_task(coro, name=...) through a task factory names the task only when the factory
returns: during its eager step the task is still Task-N."""
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


async def child():
    say(f"during the eager step: {asyncio.current_task().get_name()}")


async def main(loop):
    task = loop.create_task(child(), name="fetcher")
    say(f"after create_task(): {task.get_name()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # Task-1; the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
