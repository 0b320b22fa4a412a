"""A body that swallows the timeout's cancellation returns its value: no TimeoutError."""
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
        say_at("body swallowed the cancellation")
    return 7


async def main():
    async with asyncio.timeout(1):
        value = await body()
    say_at(f"timeout block gave {value}; cancelling() -> {asyncio.current_task().cancelling()}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
