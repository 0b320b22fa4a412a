"""Fairness: after release() the lock is unlocked, but the woken waiter has not claimed it yet;
a newcomer's acquire() waits behind it. Only a queue of cancelled waiters may be jumped."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def waiter(name, lock):
    try:
        await lock.acquire()
    except asyncio.CancelledError:
        print(f"{name} cancelled; locked() -> {lock.locked()}")
        raise
    print(f"{name} acquired")
    lock.release()
    print(f"{name} released")


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    a = asyncio.create_task(waiter("A", lock))
    await asyncio.sleep(0)
    lock.release()
    print(f"main released; locked() -> {lock.locked()}")
    print("main acquires again")
    await lock.acquire()  # A was woken first: main waits behind it
    print(f"main acquired again; locked() -> {lock.locked()}")
    await a
    b = asyncio.create_task(waiter("B", lock))
    await asyncio.sleep(0)
    print("main cancels B, releases, acquires")
    b.cancel()
    lock.release()
    await lock.acquire()  # B is queued but cancelled: the fast path
    print(f"main acquired at once; locked() -> {lock.locked()}")
    await asyncio.gather(b, return_exceptions=True)
    lock.release()
    print(f"all done; locked() -> {lock.locked()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
