"""A finished gather's repr shows its results as reprlib shows a list (six items at most, long
strings shortened), and gather() of nothing is a plain future, done with []."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def value(n):
    return n


async def text(s):
    return s


async def main():
    eight = asyncio.gather(*(value(n) for n in range(8)))
    say_at(repr(eight))
    await eight
    say_at(repr(eight))
    texts = asyncio.gather(text("x" * 40), text("short"))
    await texts
    say_at(repr(texts))
    say_at(repr(asyncio.gather()))


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
