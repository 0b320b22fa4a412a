"""Cancelling a task that awaits shield(inner) leaves inner running; cancelling inner cancels the
shield."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def inner_work():
    await asyncio.sleep(1)
    say_at("inner finishes")
    return 5


async def outer(inner):
    try:
        return await asyncio.shield(inner)
    except asyncio.CancelledError:
        say_at("outer task cancelled")
        raise


async def main():
    inner = asyncio.create_task(inner_work())
    task = asyncio.create_task(outer(inner))
    await asyncio.sleep(0.5)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    say_at(f"inner cancelling() -> {inner.cancelling()}, done -> {inner.done()}")
    say_at(f"inner returned {await inner}")
    second = asyncio.create_task(inner_work())
    shielded = asyncio.shield(second)
    await asyncio.sleep(0.5)
    second.cancel()
    try:
        await shielded
    except asyncio.CancelledError:
        say_at(f"inner cancelled, so the shield is: {shielded.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
