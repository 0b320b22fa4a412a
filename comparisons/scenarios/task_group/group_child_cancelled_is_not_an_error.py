"""TaskGroup: a child cancelled by someone else is not an error: the group goes on, the sibling
finishes and the block ends normally. (gather_child_cancelled_is_the_awaiters_error: gather().)"""
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
    async with asyncio.TaskGroup() as group:
        victim = group.create_task(worker("victim", 5))
        group.create_task(worker("other", 2))
        asyncio.get_running_loop().call_later(1, victim.cancel)
    say_at("the block ends without an error")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
