"""A Condition waiter notified and then cancelled passes the notification on to the next
waiter, and still takes the lock again before its CancelledError leaves wait()."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def say(what):
    print(f"turn {turn}: {what}")


def run_turns(loop, count):
    global turn
    for _ in range(count):
        turn += 1
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


async def waiter(name, condition):
    async with condition:
        try:
            await condition.wait()
        except asyncio.CancelledError:
            say(f"{name} cancelled, holding the lock: {condition.locked()}")
            raise
        say(f"{name} notified")


def scenario():
    loop = new_virtual_loop()
    condition = asyncio.Condition()
    a = loop.create_task(waiter("a", condition))
    loop.create_task(waiter("b", condition))
    run_turns(loop, 1)

    async def notify_one():
        async with condition:
            condition.notify()
            say(f"notify() wakes a; a.cancel() -> {a.cancel()}")

    loop.run_until_complete(notify_one())
    run_turns(loop, 3)
    say(f"a.cancelled() -> {a.cancelled()}, locked() -> {condition.locked()}")
    loop.close()


scenario()
