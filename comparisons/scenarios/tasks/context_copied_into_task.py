"""A task runs in a copy of its creator's context: later changes on either side stay on that
side."""
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


import contextvars  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


async def body():
    say(f"task sees {request_id.get()}")
    request_id.set("set by the task")
    await asyncio.sleep(0)
    say(f"task sees {request_id.get()} in its next step")


def scenario():
    loop = new_virtual_loop()
    request_id.set("at creation")
    task = loop.create_task(body())
    request_id.set("changed after creation")
    run_turns(loop, 2)
    say(f"creator sees {request_id.get()}; task done: {task.done()}")
    loop.close()


scenario()
