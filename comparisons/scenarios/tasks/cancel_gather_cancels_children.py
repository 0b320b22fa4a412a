"""Cancelling a gather() cancels its children; the awaiting task then gets CancelledError."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def child(name, delay):
    try:
        await asyncio.sleep(delay)
    except asyncio.CancelledError:
        say_at(f"{name} cancelled")
        raise


async def waiter(gathering):
    try:
        await gathering
    except asyncio.CancelledError as error:
        say_at(f"waiter got CancelledError('{error}')")
        raise


async def main():
    a = asyncio.create_task(child("a", 1))
    b = asyncio.create_task(child("b", 2))
    gathering = asyncio.gather(a, b)
    task = asyncio.create_task(waiter(gathering))
    await asyncio.sleep(0.5)
    say_at(f"gather.cancel('stop all') -> {gathering.cancel('stop all')}")
    try:
        await task
    except asyncio.CancelledError:
        pass
    say_at(f"a cancelled: {a.cancelled()}, b cancelled: {b.cancelled()}, "
           f"waiter cancelled: {task.cancelled()}")
    say_at(f"gather: done() -> {gathering.done()}, cancelled() -> {gathering.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
