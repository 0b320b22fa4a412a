"""The default executor is made on the first run_in_executor(None, ...), with
the thread name prefix "asyncio": its threads are asyncio_0, asyncio_1, ...
A thread starts when no idle one is there (two calls that wait for each
other need two). An executor of one's own names them after its prefix."""
import asyncio
import concurrent.futures
import threading


def thread_name():
    return threading.current_thread().name


async def main():
    loop = asyncio.get_running_loop()
    print(f"first call: {await loop.run_in_executor(None, thread_name)}")
    barrier = threading.Barrier(2)

    def meet():
        barrier.wait()
        return thread_name()

    names = await asyncio.gather(loop.run_in_executor(None, meet),
                                 loop.run_in_executor(None, meet))
    print(f"two calls that wait for each other: {sorted(names)}")
    own = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="resolver")
    print(f"own executor: {await loop.run_in_executor(own, thread_name)}")
    own.shutdown()
    print(f"to_thread: {(await asyncio.to_thread(thread_name)).startswith('asyncio_')}")


asyncio.run(main())
