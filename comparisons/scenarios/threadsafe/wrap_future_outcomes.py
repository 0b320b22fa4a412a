"""A coroutine awaits a concurrent future that another thread completes,
through wrap_future(): the thread's result, the thread's exception, and a
cancellation of the asyncio side that reaches the concurrent future."""
import asyncio
import concurrent.futures
import threading


def complete_later(future, action):
    thread = threading.Thread(target=action, args=(future,))
    thread.start()
    return thread


async def main():
    source = concurrent.futures.Future()
    thread = complete_later(source, lambda f: f.set_result(42))
    print(f"result: {await asyncio.wrap_future(source)}")
    thread.join()

    source = concurrent.futures.Future()
    thread = complete_later(source, lambda f: f.set_exception(ValueError("from the thread")))
    try:
        await asyncio.wrap_future(source)
    except ValueError as error:
        print(f"ValueError: {error}")
    thread.join()

    source = concurrent.futures.Future()
    wrapped = asyncio.wrap_future(source)
    print(f"wrapped.cancel(): {wrapped.cancel()}")
    await asyncio.sleep(0)
    print(f"the concurrent future is cancelled: {source.cancelled()}")

    source = concurrent.futures.Future()
    print(f"set_running_or_notify_cancel(): {source.set_running_or_notify_cancel()}")
    wrapped = asyncio.wrap_future(source)
    wrapped.cancel()
    await asyncio.sleep(0)
    print(f"a running concurrent future refuses: cancelled={source.cancelled()} "
          f"running={source.running()}")
    source.set_result(None)


asyncio.run(main())
