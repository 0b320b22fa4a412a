"""A waiter that release() woke, cancelled before it resumes, does not keep the lock: its
CancelledError branch wakes the next waiter. This is why asyncio claims the lock after the await."""
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
    try:
        await lock.acquire()
    except asyncio.CancelledError:
        say(f"{name} cancelled; locked() -> {lock.locked()}")
        raise
    say(f"{name} acquired")
    lock.release()


def scenario():
    loop = new_virtual_loop()
    lock = asyncio.Lock()
    loop.run_until_complete(lock.acquire())
    a = loop.create_task(waiter("a", lock))
    loop.create_task(waiter("b", lock))
    run_turns(loop, 1)
    lock.release()
    say(f"release() wakes a; locked() -> {lock.locked()}")
    say(f"a.cancel() -> {a.cancel()}")
    run_turns(loop, 2)
    say(f"a.cancelled() -> {a.cancelled()}, locked() -> {lock.locked()}")
    loop.close()


scenario()
