"""cancelling() counts cancel() requests, uncancel() takes one back; while one remains the task is
cancelled."""
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


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(body())
    say(f"uncancel() with nothing requested -> {task.uncancel()}")
    task.cancel()
    task.cancel()
    say(f"two cancel() -> cancelling() {task.cancelling()}")
    say(f"uncancel() -> {task.uncancel()}")
    run_turns(loop, 1)
    say(f"cancelled() -> {task.cancelled()}, cancelling() -> {task.cancelling()}")
    say(f"cancel() on a done task -> {task.cancel()}, cancelling() -> {task.cancelling()}")
    loop.close()


scenario()
