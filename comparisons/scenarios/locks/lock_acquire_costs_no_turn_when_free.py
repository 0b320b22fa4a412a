"""Acquiring a free lock costs no turn; a waiter resumes one turn after release() and claims
the lock then."""
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


async def a(lock):
    await lock.acquire()
    say(f"a acquired; locked() -> {lock.locked()}")
    await asyncio.sleep(0)
    lock.release()
    say(f"a released; locked() -> {lock.locked()}")


async def b(lock):
    say("b waits")
    await lock.acquire()
    say(f"b acquired; locked() -> {lock.locked()}")
    lock.release()


def scenario():
    loop = new_virtual_loop()
    lock = asyncio.Lock()
    loop.create_task(a(lock))
    loop.create_task(b(lock))
    run_turns(loop, 3)
    say(f"locked() -> {lock.locked()}")
    loop.close()


scenario()
