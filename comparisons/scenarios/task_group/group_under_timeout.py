"""timeout() around a group: when it expires it cancels the parent waiting for the children; the
group cancels those still running, waits for them, and the cancellation leaves timeout() as
TimeoutError."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def worker(name, delay):
    try:
        await asyncio.sleep(delay)
    except asyncio.CancelledError:
        say_at(f"{name} cancelled")
        raise
    say_at(f"{name} finished")


async def main():
    me = asyncio.current_task()
    try:
        async with asyncio.timeout(1):
            async with asyncio.TaskGroup() as group:
                group.create_task(worker("a", 5))
                group.create_task(worker("b", 0.5))
    except TimeoutError:
        say_at("TimeoutError")
    say_at(f"cancelling() = {me.cancelling()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
