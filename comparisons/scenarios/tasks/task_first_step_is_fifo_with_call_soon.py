"""create_task() schedules the first step with call_soon(): it runs in the next turn, FIFO with
callbacks."""
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


async def body(name):
    say(f"{name} first step")


def callback(name):
    say(name)


def scenario():
    loop = new_virtual_loop()
    loop.call_soon(callback, "callback 1")
    first = loop.create_task(body("task 1"))
    loop.call_soon(callback, "callback 2")
    second = loop.create_task(body("task 2"))
    say(f"after create_task: started? {first.done() or second.done()}")
    run_turns(loop, 1)
    loop.close()


scenario()
