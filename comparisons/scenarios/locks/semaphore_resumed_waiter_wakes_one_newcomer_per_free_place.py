"""Newcomers queue behind a woken waiter even with places free (first in, first out); when the
woken waiter resumes it wakes one newcomer per free place (CPython 3.13; 3.12.1 woke only one)."""
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


async def waiter(name, places):
    await places.acquire()
    say(f"{name} acquired")


def release_three_times(places):
    places.release()
    places.release()
    places.release()
    say(f"release() three times wakes a; locked() -> {places.locked()}")


def scenario():
    loop = new_virtual_loop()
    places = asyncio.Semaphore(0)
    loop.create_task(waiter("a", places))
    run_turns(loop, 1)
    loop.call_soon(release_three_times, places)
    for name in "xyz":
        loop.create_task(waiter(name, places))
    run_turns(loop, 1)
    say(f"x, y and z queued behind a; locked() -> {places.locked()}")
    run_turns(loop, 2)
    say(f"locked() -> {places.locked()}")
    places.release()
    run_turns(loop, 1)
    loop.close()


scenario()
