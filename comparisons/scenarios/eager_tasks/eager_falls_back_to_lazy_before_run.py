"""With eager_task_factory set, a task created while the loop is not running starts lazily,
in the first turn; one created from inside the running loop starts eagerly."""
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


async def child(label):
    say(f"{label} child: first step")


def from_callback(loop):
    task = loop.create_task(child("running-loop"))
    say(f"running-loop child done after create_task(): {task.done()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    early = loop.create_task(child("early"))
    say(f"early child done after create_task(): {early.done()}")
    loop.call_soon(from_callback, loop)
    run_turns(loop, 1)
    loop.close()


scenario()
