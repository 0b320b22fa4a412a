"""The eager step already runs in the task's own copy of the creator's context: it sees the
creator's values, and what it sets stays in the task's context."""
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


async def child():
    say(f"child sees {request_id.get()}")
    request_id.set("set by the child")


async def main(loop):
    request_id.set("main's")
    task = loop.create_task(child())
    say(f"after create_task(), main sees {request_id.get()}")
    say(f"the child's context holds {task.get_context().run(request_id.get)}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 1)
    loop.close()


scenario()
