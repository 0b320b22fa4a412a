"""timeout(): when it expires the body is cancelled, cleans up, and TimeoutError comes out."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def body():
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        say_at("body cleans up")
        raise
    return 1


async def main():
    task = asyncio.current_task()
    try:
        async with asyncio.timeout(1):
            await body()
    except TimeoutError:
        say_at("TimeoutError")
    say_at(f"cancelling() -> {task.cancelling()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
