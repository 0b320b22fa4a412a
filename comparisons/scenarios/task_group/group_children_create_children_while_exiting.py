"""A child handed the group may add children to it while the group already waits in its exit:
the block ends only when the grandchild has ended too."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def grandchild():
    await asyncio.sleep(2)
    say_at("grandchild finished")


async def child(group):
    await asyncio.sleep(1)
    group.create_task(grandchild())
    say_at(f"child added a grandchild: {group!r}")


async def main():
    async with asyncio.TaskGroup() as group:
        group.create_task(child(group))
        say_at(f"body done: {group!r}")
    say_at("the block ends")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
