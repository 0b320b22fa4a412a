"""A thread cancels the concurrent future that run_coroutine_threadsafe()
returned before the loop has even made the task. The cancellation still
comes too late for the coroutine: when the loop makes the task, its first
step is scheduled at once, and the chaining, seeing the concurrent future
cancelled, posts task.cancel() with call_soon_threadsafe(), behind that step.
The coroutine runs to its end; the concurrent future stays cancelled."""
import asyncio
import threading


async def job(log):
    log.append("the coroutine ran")
    return 1


def main():
    loop = asyncio.new_event_loop()
    log = []
    futures = []

    def caller():
        future = asyncio.run_coroutine_threadsafe(job(log), loop)
        print(f"cancel() before the loop's turn: {future.cancel()}")
        futures.append(future)

    thread = threading.Thread(target=caller)
    thread.start()
    thread.join()
    for _ in range(3):
        loop.call_soon(loop.stop)
        loop.run_forever()
    print(f"the coroutine ran: {bool(log)}")
    print(f"the concurrent future: cancelled={futures[0].cancelled()}")
    loop.close()


main()
