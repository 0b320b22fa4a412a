"""release() of a lock that is not locked raises RuntimeError, also between a release() and the
turn in which the woken waiter claims the lock; the lock stays usable."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def try_release(lock, what):
    try:
        lock.release()
        print(f"{what}: released")
    except RuntimeError as error:
        print(f"{what}: {type(error).__name__}: {error}")


async def waiter(lock):
    await lock.acquire()
    print(f"A acquired; locked() -> {lock.locked()}")
    lock.release()


async def main():
    lock = asyncio.Lock()
    try_release(lock, "release() of a new lock")
    await lock.acquire()
    a = asyncio.create_task(waiter(lock))
    await asyncio.sleep(0)
    try_release(lock, "first release()")
    try_release(lock, "second release(), A woken but not run")
    await a
    try_release(lock, "release() after A released")
    print(f"locked() -> {lock.locked()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
