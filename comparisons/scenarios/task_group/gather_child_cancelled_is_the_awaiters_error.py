"""gather(): a child cancelled by someone else fails gather() with CancelledError, though the
awaiter itself was not cancelled (its cancelling() is 0); the sibling runs on.
(group_child_cancelled_is_not_an_error: a TaskGroup.)"""
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
    return delay


async def main():
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    victim = loop.create_task(worker("victim", 5))
    other = loop.create_task(worker("other", 2))
    loop.call_later(1, victim.cancel)
    try:
        await asyncio.gather(victim, other)
    except asyncio.CancelledError:
        say_at(f"gather raised CancelledError; main's cancelling() = {me.cancelling()}")
    await other  # nobody else waits for it


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
