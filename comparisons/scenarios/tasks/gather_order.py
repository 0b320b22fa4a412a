"""gather() gives the results in argument order, whatever order the children finish in."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def child(name, delay, value):
    await asyncio.sleep(delay)
    say_at(f"{name} finishes")
    return value


async def main():
    slow = asyncio.create_task(child("slow", 0.3, 1))
    fast = asyncio.create_task(child("fast", 0.1, 2))
    middle = asyncio.create_task(child("middle", 0.2, 3))
    results = await asyncio.gather(slow, fast, middle)
    say_at(f"gather -> {results}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
