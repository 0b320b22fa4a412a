"""set() wakes every waiter, in the order they started waiting, and skips a cancelled one; a
second set() changes nothing."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def waiter(name, event):
    print(f"{name} waits")
    try:
        await event.wait()
    except asyncio.CancelledError:
        print(f"{name} cancelled")
        raise
    print(f"{name} woke; is_set() -> {event.is_set()}")


async def main():
    event = asyncio.Event()
    waiters = [asyncio.create_task(waiter(name, event)) for name in ("A", "B", "C")]
    await asyncio.sleep(0)
    print("main cancels B, sets the event twice")
    waiters[1].cancel()
    event.set()
    event.set()
    await asyncio.gather(*waiters, return_exceptions=True)
    print(f"all done; is_set() -> {event.is_set()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
