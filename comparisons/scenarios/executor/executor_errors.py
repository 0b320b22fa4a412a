"""The executor's refusals and their texts: a pool of no threads, a submit
after shutdown (directly or through run_in_executor), a default executor
that is not one, the default executor after shutdown_default_executor(),
and run_in_executor() on a closed loop."""
import asyncio
import concurrent.futures


def attempt(label, action):
    try:
        action()
    except Exception as error:
        print(f"{label}: {type(error).__name__}: {error}")


async def main():
    loop = asyncio.get_running_loop()
    attempt("max_workers=0", lambda: concurrent.futures.ThreadPoolExecutor(max_workers=0))
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    executor.shutdown()
    attempt("submit after shutdown", lambda: executor.submit(print, "never"))
    attempt("run_in_executor after shutdown",
            lambda: loop.run_in_executor(executor, print, "never"))
    attempt("set_default_executor(None)", lambda: loop.set_default_executor(None))
    await loop.shutdown_default_executor()
    attempt("run_in_executor(None) after shutdown_default_executor()",
            lambda: loop.run_in_executor(None, print, "never"))
    own = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    print(f"an executor of one's own still works: {await loop.run_in_executor(own, sum, [1, 2])}")
    own.shutdown()


asyncio.run(main())
loop = asyncio.new_event_loop()
loop.close()
attempt("run_in_executor on a closed loop", lambda: loop.run_in_executor(None, print, "never"))
