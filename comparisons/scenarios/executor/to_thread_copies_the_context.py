"""to_thread() runs the function in a copy of the caller's context: the
worker sees the caller's values, and what it sets stays in the copy.
run_in_executor() copies nothing: the worker runs in its thread's own
context, where the variable has its default."""
import asyncio
import contextvars

request_id = contextvars.ContextVar("request_id", default="none")


def read_and_set():
    seen = request_id.get()
    request_id.set("set by the worker")
    return seen


async def main():
    loop = asyncio.get_running_loop()
    request_id.set("main")
    print(f"to_thread: the worker saw {await asyncio.to_thread(read_and_set)}")
    print(f"after to_thread, main sees {request_id.get()}")
    request_id.set("main again")
    print(f"run_in_executor: the worker saw {await loop.run_in_executor(None, request_id.get)}")
    print(f"to_thread: the worker saw {await asyncio.to_thread(request_id.get)}")


asyncio.run(main())
