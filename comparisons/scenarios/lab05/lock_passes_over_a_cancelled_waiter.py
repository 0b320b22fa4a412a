"""A cancelled waiter is skipped: when its cancellation is delivered and the lock is free, it
wakes the next waiter; while the lock is held, it wakes nobody."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def waiter(name, lock, hold):
    try:
        await lock.acquire()
    except asyncio.CancelledError:
        print(f"{name} cancelled; locked() -> {lock.locked()}")
        raise
    print(f"{name} acquired")
    if hold:
        return  # keeps the lock; main releases it
    lock.release()


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    a = asyncio.create_task(waiter("A", lock, False))
    b = asyncio.create_task(waiter("B", lock, True))
    await asyncio.sleep(0)
    print("main cancels A, then releases")
    a.cancel()
    lock.release()
    await asyncio.gather(a, b, return_exceptions=True)
    # B holds the lock now. A waiter cancelled while it is held wakes nobody.
    c = asyncio.create_task(waiter("C", lock, False))
    d = asyncio.create_task(waiter("D", lock, False))
    await asyncio.sleep(0)
    print("main cancels C; B still holds the lock")
    c.cancel()
    await asyncio.gather(c, return_exceptions=True)
    print(f"D waits on; locked() -> {lock.locked()}")
    lock.release()  # for B
    await d
    print(f"all done; locked() -> {lock.locked()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
