"""Nested timeouts: only the scope that expired turns the CancelledError into TimeoutError."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def body():
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        say_at("body cancelled")
        raise


async def inner_scope(limit):
    try:
        async with asyncio.timeout(limit):
            await body()
    except TimeoutError:
        say_at("inner scope raised TimeoutError")
        raise
    except asyncio.CancelledError:
        say_at("inner scope let CancelledError through")
        raise


async def outer_scope(outer_limit, inner_limit):
    try:
        async with asyncio.timeout(outer_limit):
            await inner_scope(inner_limit)
    except TimeoutError:
        say_at("outer caught TimeoutError")


async def main():
    await outer_scope(1, 5)
    await outer_scope(5, 1)


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
