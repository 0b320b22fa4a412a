"""A finished gather(return_exceptions=True) shows its list in its repr, an exception as its
repr, shortened as reprlib shortens what is neither a str nor a number (30 characters)."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def value(n):
    return n


async def fail(message):
    raise ValueError(message)


async def cancel_itself():
    raise asyncio.CancelledError()


async def main():
    outcomes = asyncio.gather(value(1), fail("x"), cancel_itself(), return_exceptions=True)
    await outcomes
    say_at(repr(outcomes))
    outcomes = asyncio.gather(fail("a much longer message than thirty"), return_exceptions=True)
    await outcomes
    say_at(repr(outcomes))


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
