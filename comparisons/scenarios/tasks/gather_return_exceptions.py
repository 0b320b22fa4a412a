"""gather(return_exceptions=True) collects every outcome in order, errors and cancellations
included."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def ok():
    await asyncio.sleep(0.3)
    return 1


async def bad():
    await asyncio.sleep(0.1)
    raise ValueError("bad")


def describe(outcome):
    if isinstance(outcome, BaseException):
        return f"{type(outcome).__name__}('{outcome}')"
    return f"value {outcome}"


async def main():
    loop = asyncio.get_running_loop()
    first = asyncio.create_task(ok())
    second = asyncio.create_task(bad())
    third = loop.create_future()
    outcomes = asyncio.gather(first, second, third, return_exceptions=True)
    third.cancel("no thanks")
    results = await outcomes
    for index, outcome in enumerate(results):
        say_at(f"{index}: {describe(outcome)}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
