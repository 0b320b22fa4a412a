"""Closing a loop with a task still pending: the task goes, reported as 'Task was destroyed but it
is pending!'."""
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


import gc  # noqa: E402


def handler(loop, context):
    message = context["message"]
    if message.startswith("Task was destroyed but it is pending!"):
        print("handler: Task was destroyed but it is pending!")
    else:
        print(f"handler: {message}")


async def stuck(future):
    say("task waits for a future nobody completes")
    await future


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    future = loop.create_future()
    task = loop.create_task(stuck(future))
    run_turns(loop, 2)
    say(f"task done: {task.done()}")
    print("closing the loop")
    loop.close()
    # CPython reports when the task is collected; C++ when the loop closes.
    del task, future
    gc.collect()
    print("closed")


scenario()
