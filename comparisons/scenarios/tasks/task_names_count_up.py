"""Tasks are named Task-1, Task-2, ... from one counter; set_name() renames."""
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
    return None


def scenario():
    loop = new_virtual_loop()
    first = loop.create_task(body())
    second = loop.create_task(body())
    say(f"{first.get_name()} {second.get_name()}")
    second.set_name("worker")
    third = loop.create_task(body())
    say(f"{first.get_name()} {second.get_name()} {third.get_name()}")
    run_turns(loop, 1)
    loop.close()


scenario()
