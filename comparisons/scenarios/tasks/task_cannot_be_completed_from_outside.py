"""Task.set_result() and Task.set_exception() raise RuntimeError: a task ends
only when its coroutine does, and the refusal leaves it running."""
import asyncio
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


async def worker():
    say("worker starts")
    await asyncio.sleep(0)
    say("worker returns 7")
    return 7


def attempt(what, fn):
    try:
        fn()
        print(f"{what} -> accepted")
    except RuntimeError as e:
        print(f"{what} -> RuntimeError: {e}")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(worker())
    run_turns(loop, 1)
    attempt("task.set_result(1)", lambda: task.set_result(1))
    attempt("task.set_exception(e)", lambda: task.set_exception(ValueError("outside")))
    print(f"done: {task.done()}")
    run_turns(loop, 2)
    print(f"result: {task.result()}")
    attempt("task.set_result(1)", lambda: task.set_result(1))
    loop.close()


scenario()
