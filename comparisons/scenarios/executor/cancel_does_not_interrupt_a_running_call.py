"""Cancelling run_in_executor()'s future cancels the asyncio side at once and,
one turn later, tries the concurrent future, which refuses: the call already
runs. Nothing interrupts a thread: the function runs to its end and its
result is dropped."""
import asyncio
import concurrent.futures
import threading

started = threading.Event()
release = threading.Event()
finished = []


def blocking():
    started.set()
    release.wait()
    finished.append("blocking")
    return "dropped"


async def main():
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = loop.run_in_executor(executor, blocking)
    started.wait()
    print(f"cancel(): {future.cancel()}")
    print(f"cancelled(): {future.cancelled()}")
    await asyncio.sleep(0)
    release.set()
    executor.shutdown(wait=True)
    print(f"the function ran to its end: {finished}")
    await asyncio.sleep(0)
    print(f"after its result came back, cancelled(): {future.cancelled()}")


asyncio.run(main())
