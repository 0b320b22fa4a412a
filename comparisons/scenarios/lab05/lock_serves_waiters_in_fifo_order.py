"""release() wakes the first waiter only; the waiters get the lock in the order they asked."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def worker(name, lock):
    print(f"{name} waits")
    await lock.acquire()
    print(f"{name} acquired; locked() -> {lock.locked()}")
    lock.release()
    print(f"{name} released")


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    print(f"main acquired; locked() -> {lock.locked()}")
    workers = [asyncio.create_task(worker(name, lock)) for name in ("A", "B", "C")]
    await asyncio.sleep(0)  # each worker's first step: it queues
    print("main releases")
    lock.release()
    await asyncio.gather(*workers)
    print(f"all done; locked() -> {lock.locked()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
