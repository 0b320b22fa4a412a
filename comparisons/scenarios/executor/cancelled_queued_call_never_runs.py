"""A call still queued behind a busy worker can be cancelled: cancelling its
asyncio future cancels the concurrent one (one turn later), and the worker
skips it. The calls before and after it run."""
import asyncio
import concurrent.futures
import threading

started = threading.Event()
release = threading.Event()
ran = []


def first():
    started.set()
    release.wait()
    ran.append("first")
    return "first"


def record(label):
    ran.append(label)
    return label


async def main():
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    busy = loop.run_in_executor(executor, first)
    started.wait()
    queued = loop.run_in_executor(executor, record, "second")
    after = loop.run_in_executor(executor, record, "third")
    print(f"cancel the queued call: {queued.cancel()}")
    await asyncio.sleep(0)
    release.set()
    print(f"results: {await busy}, {await after}")
    print(f"ran: {ran}")
    print(f"queued.cancelled(): {queued.cancelled()}")
    executor.shutdown()


asyncio.run(main())
