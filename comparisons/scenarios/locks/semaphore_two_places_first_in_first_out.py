"""Semaphore(2): two holders at a time, the others queue first in, first out; async with
releases the place, which goes to the first waiter a turn later."""
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


async def worker(name, places):
    async with places:
        say(f"{name} holds a place")
        await asyncio.sleep(0)
    say(f"{name} released")


def scenario():
    loop = new_virtual_loop()
    places = asyncio.Semaphore(2)
    for name in "abcd":
        loop.create_task(worker(name, places))
    run_turns(loop, 1)
    say(f"locked() -> {places.locked()}")
    run_turns(loop, 3)
    say(f"locked() -> {places.locked()}")
    loop.close()


scenario()
