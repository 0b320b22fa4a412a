"""Condition: wait() releases the lock and takes it again before it returns, so a notified
consumer resumes only after the notifier has left its block; wait_for() checks its predicate first
and after each wake-up."""
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


async def consumer(name, condition, items):
    async with condition:
        say(f"{name} waits")
        await condition.wait_for(lambda: items)
        say(f"{name} takes {items.pop(0)}")


async def producer(condition, items):
    async with condition:
        items.append("apple")
        condition.notify()
        say(f"producer notified one; locked() -> {condition.locked()}")
        await asyncio.sleep(0)
        say("producer leaves its block")
    await asyncio.sleep(0)
    async with condition:
        items.extend(["pear", "plum"])
        condition.notify_all()
        say("producer notified all")


def scenario():
    loop = new_virtual_loop()
    condition = asyncio.Condition()
    items = []
    for name in "ab":
        loop.create_task(consumer(name, condition, items))
    run_turns(loop, 1)
    loop.create_task(producer(condition, items))
    run_turns(loop, 8)
    say(f"items left: {items}, locked() -> {condition.locked()}")
    try:
        condition.notify()
    except RuntimeError as error:
        say(f"RuntimeError: {error}")

    async def wait_unlocked():
        await condition.wait()

    try:
        loop.run_until_complete(wait_unlocked())
    except RuntimeError as error:
        say(f"RuntimeError: {error}")
    loop.close()


scenario()
