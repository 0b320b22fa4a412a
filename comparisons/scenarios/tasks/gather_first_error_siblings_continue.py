"""The first error fails gather() at once; the other children are not cancelled and run on."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def ok(delay):
    await asyncio.sleep(delay)
    say_at("ok child finishes")
    return 1


async def bad(delay):
    await asyncio.sleep(delay)
    say_at("bad child raises ValueError('first')")
    raise ValueError("first")


async def main():
    sibling = asyncio.create_task(ok(2))
    failing = asyncio.create_task(bad(1))
    try:
        await asyncio.gather(sibling, failing)
    except ValueError as error:
        say_at(f"gather raised ValueError('{error}')")
    say_at(f"sibling done? {sibling.done()}")
    value = await sibling
    say_at(f"sibling returned {value}, cancelled? {sibling.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
