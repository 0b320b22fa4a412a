"""Another thread starts coroutines on the loop with
run_coroutine_threadsafe() and blocks on the concurrent future it gets: the
result, the coroutine's exception, a timeout that cancels nothing, and a
cancellation that reaches the task at its await."""
import asyncio
import concurrent.futures
import threading


async def answer(value):
    await asyncio.sleep(0)
    return value


async def fail():
    await asyncio.sleep(0)
    raise ValueError("from the coroutine")


async def wait_forever(log):
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        log.append("the task: cancelled at its await")
        raise


def caller(loop):
    future = asyncio.run_coroutine_threadsafe(answer(42), loop)
    print(f"result: {future.result()}")
    future = asyncio.run_coroutine_threadsafe(fail(), loop)
    try:
        future.result()
    except ValueError as error:
        print(f"ValueError: {error}")
    log = []
    future = asyncio.run_coroutine_threadsafe(wait_forever(log), loop)
    try:
        future.result(timeout=0.001)
    except TimeoutError:
        print("result(timeout): TimeoutError, and the task runs on")
    print(f"cancel(): {future.cancel()}")
    try:
        future.result()
    except concurrent.futures.CancelledError:
        print("result(): concurrent CancelledError")
    asyncio.run_coroutine_threadsafe(answer(0), loop).result()  # a turn for the task to hear it
    print(log[0])
    loop.call_soon_threadsafe(loop.stop)


def main():
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=caller, args=(loop,))
    loop.call_soon(thread.start)
    loop.run_forever()
    thread.join()
    loop.close()


main()
