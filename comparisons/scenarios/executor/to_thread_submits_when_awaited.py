"""to_thread() is a coroutine: calling it submits nothing. The call goes to
the default executor when the coroutine is awaited, or in the first step
of a task made of it (not in create_task()); a to_thread() coroutine that
is never run never calls its function."""
import asyncio
import concurrent.futures

calls = []


def record(label):
    calls.append(label)
    return label


async def main():
    loop = asyncio.get_running_loop()
    # One worker: the default executor runs its items in the order submitted.
    loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(max_workers=1))
    never = asyncio.to_thread(record, "never")
    later = asyncio.to_thread(record, "awaited")
    seen = await loop.run_in_executor(None, lambda: list(calls))
    print(f"before the await, the worker saw {seen}")
    print(f"await: {await later}")
    task = asyncio.create_task(asyncio.to_thread(record, "task"))
    seen = await loop.run_in_executor(None, lambda: list(calls))
    print(f"submitted before the task's first step, the worker saw {seen}")
    print(f"await task: {await task}")
    never.close()
    print(f"calls: {calls}")


asyncio.run(main())
