"""The tasks gather() makes for coroutines are its own: nobody else can hold them, so closing
the loop while they are pending does not report them as destroyed (asyncio's gather() sets
their _log_destroy_pending to False). A task the program made itself still is reported."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def say(what):
    print(f"turn {turn}: {what}")


def run_turns(loop, count):
    global turn
    for _ in range(count):
        turn += 1
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


import asyncio  # noqa: E402
import gc  # noqa: E402


def handler(loop, context):
    message = context["message"]
    if message.startswith("Task was destroyed but it is pending!"):
        print("handler: Task was destroyed but it is pending!")
    else:
        print(f"handler: {message}")


async def stuck(future):
    say("a child waits for a future nobody completes")
    return await future


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    asyncio.set_event_loop(loop)
    future = loop.create_future()
    all_ = asyncio.gather(stuck(future), stuck(future))
    mine = loop.create_task(stuck(future))
    run_turns(loop, 1)
    print("closing the loop")
    loop.close()
    # CPython reports when a task is collected; C++ when the loop closes.
    del all_, mine, future
    gc.collect()
    print("closed")


scenario()
