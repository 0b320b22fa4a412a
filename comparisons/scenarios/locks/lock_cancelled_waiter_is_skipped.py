"""A waiter cancelled while it waits leaves the queue a turn later; if the lock is free then,
it wakes the next waiter; while the lock is held, it wakes nobody."""
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


def scenario():
    loop = new_virtual_loop()
    lock = asyncio.Lock()
    loop.run_until_complete(lock.acquire())
    a = loop.create_task(waiter("a", lock))
    loop.create_task(waiter("b", lock))
    c = loop.create_task(waiter("c", lock))
    loop.create_task(waiter("d", lock))
    run_turns(loop, 1)
    a.cancel()
    lock.release()
    say("a cancelled and the lock released: the first waiter is done, nobody is woken")
    run_turns(loop, 2)
    c.cancel()
    say("c cancelled while b holds the lock")
    run_turns(loop, 2)
    lock.release()
    say("b's lock released")
    run_turns(loop, 1)
    loop.close()


scenario()
