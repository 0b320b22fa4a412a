"""wait() on a set event returns True at once; after clear() it waits for the next set(); a
clear() right after set() does not take back the wake-up."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def waiter(name, event):
    print(f"{name} waits")
    await event.wait()
    print(f"{name} woke; is_set() -> {event.is_set()}")


async def main():
    event = asyncio.Event()
    event.set()
    print(f"wait() on a set event -> {await event.wait()}")
    event.clear()
    print(f"cleared; is_set() -> {event.is_set()}")
    a = asyncio.create_task(waiter("A", event))
    await asyncio.sleep(0)
    print("main sets the event and clears it at once")
    event.set()
    event.clear()
    await a
    b = asyncio.create_task(waiter("B", event))
    await asyncio.sleep(0)
    print("main sets the event")
    event.set()
    await b


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
