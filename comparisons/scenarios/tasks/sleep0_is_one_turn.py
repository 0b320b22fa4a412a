"""sleep(0) is one bare yield: the task runs again in the next turn, behind what is queued."""
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


async def worker(name):
    for step in range(1, 4):
        say(f"{name} step {step}")
        await asyncio.sleep(0)
    say(f"{name} finished")


def scenario():
    loop = new_virtual_loop()
    a = loop.create_task(worker("a"))
    b = loop.create_task(worker("b"))
    run_turns(loop, 4)
    say(f"both done: {a.done() and b.done()}; timers used: {len(loop._scheduled)}")
    loop.close()


scenario()
