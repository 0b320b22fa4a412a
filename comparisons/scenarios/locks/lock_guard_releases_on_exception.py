"""async with lock: the lock is released however the block ends; an exception leaving it
lets the next waiter in."""
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


async def block(name, lock, fail):
    try:
        async with lock:
            say(f"{name} inside; locked() -> {lock.locked()}")
            await asyncio.sleep(0)
            if fail:
                raise ValueError(f"{name} failed")
        say(f"{name} left the block; locked() -> {lock.locked()}")
    except ValueError as error:
        say(f"{name} raised ValueError: {error}; locked() -> {lock.locked()}")


def scenario():
    loop = new_virtual_loop()
    lock = asyncio.Lock()
    loop.create_task(block("a", lock, True))
    loop.create_task(block("b", lock, False))
    run_turns(loop, 4)
    loop.close()


scenario()
