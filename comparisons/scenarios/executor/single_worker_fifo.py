"""One worker runs the calls in the order they were submitted, and their
results come back in that order: the asyncio futures' done callbacks run in
submission order, whatever order the coroutine awaits them in."""
import asyncio
import concurrent.futures


def square(n):
    return n * n


async def main():
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    futures = [loop.run_in_executor(executor, square, n) for n in range(1, 5)]
    for n, future in enumerate(futures, start=1):
        future.add_done_callback(lambda f, n=n: print(f"done: square({n}) = {f.result()}"))
    print(f"awaited last first: {await futures[-1]}")
    print(f"gather: {await asyncio.gather(*futures)}")
    executor.shutdown()


asyncio.run(main())
