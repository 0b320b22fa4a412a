"""Eager tasks: the same program, with eager_task_factory, loses the message: the task's
first step ran inside create_task(), before the listener was registered."""
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


listeners = []


async def announcer():
    say(f"announcer: {len(listeners)} listener(s)")
    for listener in listeners:
        listener("hello")


async def main(loop):
    task = loop.create_task(announcer())
    listeners.append(lambda message: say(f"listener got {message}"))
    say("main registered its listener after create_task()")
    await task


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 3)
    loop.close()


scenario()
