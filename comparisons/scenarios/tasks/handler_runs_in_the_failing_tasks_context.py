"""A custom exception handler runs in the Context of the task a report is
about (asyncio 3.12+, Task.get_context()): "Task exception was never
retrieved" sees what the task's coroutine set, not the caller's value."""
import contextvars
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


def run_turns(loop, count):
    for _ in range(count):
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


def handler(loop, context):
    print(f"handler: {context['message']}, request_id = {request_id.get()}")


async def fails():
    print(f"task starts with request_id = {request_id.get()}")
    request_id.set("set inside the task")
    raise ValueError("nobody asked")


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    request_id.set("req-7")
    failing = loop.create_task(fails())
    request_id.set("main")
    run_turns(loop, 1)
    print("dropping the task")
    del failing
    gc.collect()
    print(f"main sees request_id = {request_id.get()}")
    loop.close()


scenario()
