"""A done callback added to a task that finished in its eager step runs one turn later, as
on any done future, in FIFO order with the other callbacks."""
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
    return 1


async def main(loop):
    task = loop.create_task(child())
    task.add_done_callback(lambda _: say("done callback runs"))
    say(f"callback added; child done: {task.done()}")
    await asyncio.sleep(0)
    say("main resumes after sleep(0)")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 2)
    loop.close()


scenario()
