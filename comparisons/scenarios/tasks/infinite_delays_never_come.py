"""A delay of infinity (or of a thousand centuries) is accepted and never comes: sleep(inf) lasts
until cancelled, timeout(inf) and wait_for(x, inf) never expire; NaN is a ValueError."""
import asyncio
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def sleeper():
    try:
        await asyncio.sleep(math.inf)
    except asyncio.CancelledError:
        say_at("sleep(inf) cancelled")
        raise


async def answer(delay, value):
    await asyncio.sleep(delay)
    return value


async def main():
    forever = asyncio.create_task(sleeper())
    async with asyncio.timeout(math.inf):
        await asyncio.sleep(1)
    say_at("timeout(inf) did not expire")
    say_at(f"wait_for(inf) -> {await asyncio.wait_for(answer(0.5, 7), math.inf)}")
    say_at(f"wait_for(1e12) -> {await asyncio.wait_for(answer(0.5, 8), 1e12)}")
    forever.cancel()
    try:
        await forever
    except asyncio.CancelledError:
        pass
    try:
        await asyncio.sleep(math.nan)
    except ValueError as error:
        say_at(f"sleep(nan) -> ValueError: {error}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
