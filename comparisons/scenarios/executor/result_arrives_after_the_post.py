"""run_in_executor() hands the call to a worker at once; the worker's result
comes back as a posted callback (call_soon_threadsafe), which sets the
asyncio future in its turn: a call_soon() made after the post runs after
it, and the awaiting task resumes one turn later, after the done callbacks."""
import asyncio
import concurrent.futures


def compute():
    return 42


async def main():
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = loop.run_in_executor(executor, compute)
    future.add_done_callback(lambda f: print(f"done callback: result {f.result()}"))
    # One worker: once it has run the next item, it has posted compute's result.
    executor.submit(lambda: None).result()
    print(f"the worker has posted; done() = {future.done()}")
    loop.call_soon(lambda: print(f"call_soon made after the post: done() = {future.done()}"))
    result = await future
    print(f"the task resumes with {result}")
    executor.shutdown()


asyncio.run(main())
