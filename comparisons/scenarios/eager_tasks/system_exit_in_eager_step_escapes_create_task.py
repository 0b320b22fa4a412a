"""SystemExit raised in the eager step is stored in the task and also escapes create_task(),
as it escapes any step; the creator is the current task again."""
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


seen = []


async def child():
    seen.append(asyncio.current_task())
    say("child raises SystemExit(3)")
    raise SystemExit(3)


async def main(loop):
    try:
        loop.create_task(child())
    except SystemExit as error:
        say(f"create_task() raised SystemExit({error.code})")
    say(f"current_task() is main again: {asyncio.current_task() is task}")
    child_task = seen[0]
    code = child_task.exception().code
    say(f"the child: done {child_task.done()}; exception: SystemExit({code})")


def scenario():
    global task
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    say(f"main done: {task.done()}")
    loop.close()


task = None
scenario()
