"""With eager_task_factory, a child that fails in its first step aborts the group inside
create_task(): the sibling and the parent are cancelled before create_task() returns, and the
body goes on until its next await, where the group's cancellation reaches it."""
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


async def slow():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say("slow child cancelled")
        raise


async def bad():
    say("bad child raises ValueError('eager')")
    raise ValueError("eager")


async def main():
    me = asyncio.current_task()
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(slow())
            group.create_task(bad())
            say(f"after create_task: {group!r}; cancelling() = {me.cancelling()}")
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                say("body: CancelledError at its next await")
                raise
    except ExceptionGroup as error:
        say(f"{type(error).__name__}: {error}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(main())  # the loop is not running yet: lazy
    run_turns(loop, 4)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
