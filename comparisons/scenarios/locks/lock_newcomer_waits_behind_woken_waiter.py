"""Fairness: between release() and the woken waiter's resumption the lock is unlocked, yet a
newcomer that asks in between queues behind the woken waiter instead of taking it."""
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


async def waiter(name, lock):
    say(f"{name} asks; locked() -> {lock.locked()}")
    await lock.acquire()
    say(f"{name} acquired")
    await asyncio.sleep(0)
    lock.release()
    say(f"{name} released")


def scenario():
    loop = new_virtual_loop()
    lock = asyncio.Lock()
    loop.run_until_complete(lock.acquire())
    loop.create_task(waiter("a", lock))
    run_turns(loop, 1)
    loop.create_task(waiter("newcomer", lock))  # its first step comes before a's wakeup
    lock.release()
    say(f"released; locked() -> {lock.locked()}, a is woken")
    run_turns(loop, 4)
    say(f"locked() -> {lock.locked()}")
    loop.close()


scenario()
