"""An eager task that awaits a future already done does not suspend: it finishes inside
create_task(); one that awaits a pending future goes on later."""
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


async def child(label, future):
    say(f"{label}: awaits the future")
    value = await future
    say(f"{label}: goes on with {value}")


async def main(loop):
    ready = loop.create_future()
    ready.set_result(5)
    pending = loop.create_future()
    first = loop.create_task(child("first", ready))
    second = loop.create_task(child("second", pending))
    say(f"first done: {first.done()}; second done: {second.done()}")
    pending.set_result(6)
    await second


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 3)
    loop.close()


scenario()
