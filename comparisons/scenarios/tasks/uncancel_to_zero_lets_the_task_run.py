"""CPython 3.13: uncancel() back to zero also drops the pending cancellation; the task runs
normally."""
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


async def body():
    say("body runs")
    return 1


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(body())
    say(f"cancel() -> {task.cancel()}, uncancel() -> {task.uncancel()}")
    run_turns(loop, 1)
    say(f"cancelled() -> {task.cancelled()}, result() -> {task.result()}")
    loop.close()


scenario()
