"""asyncio.run() ends by cancelling the tasks left, then waiting for the
default executor's threads (shutdown_default_executor), then closing the
loop: a call left running in a thread, fire-and-forget or abandoned by a
cancelled task, has finished when run() returns."""
import asyncio
import threading

abandoned_started = threading.Event()
task_cancelled = threading.Event()
main_returned = threading.Event()
finished = []


def abandoned():
    abandoned_started.set()
    task_cancelled.wait()
    finished.append("the call the cancelled task awaited")


def fire_and_forget():
    main_returned.wait()
    finished.append("the fire-and-forget call")


async def waiter():
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, abandoned)
    except asyncio.CancelledError:
        print("waiter: cancelled by run()")
        task_cancelled.set()
        raise


async def main():
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    # Once the call runs, cancelling its future cannot stop it; while it still
    # waits in the pool's queue, it could (and then it would never run). A
    # waiter already done could not submit it: then it will never start.
    if not task.done():
        abandoned_started.wait()
    loop.run_in_executor(None, fire_and_forget)
    print("main returns")
    main_returned.set()


asyncio.run(main())
print(f"after run(): {sorted(finished)}")
