"""run_in_executor() runs the function in the worker thread's own context, not
the caller's and not a fresh one per call: what one call sets there, the next
call on the same thread sees (one worker here). to_thread() calls run in a
copy of the caller's context and neither see nor change it."""
import asyncio
import concurrent.futures
import contextvars

request_id = contextvars.ContextVar("request_id", default="none")


def set_value(value):
    before = request_id.get()
    request_id.set(value)
    return before


async def main():
    loop = asyncio.get_running_loop()
    loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(max_workers=1))
    request_id.set("main")
    first = await loop.run_in_executor(None, set_value, "first call")
    print(f"first call saw {first}")
    second = await loop.run_in_executor(None, set_value, "second call")
    print(f"second call saw {second}")
    third = await asyncio.to_thread(set_value, "to_thread")
    print(f"to_thread saw {third}")
    fourth = await loop.run_in_executor(None, request_id.get)
    print(f"the thread's own context still holds {fourth}")
    print(f"main still sees {request_id.get()}")


asyncio.run(main())
