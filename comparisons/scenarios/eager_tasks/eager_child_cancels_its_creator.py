"""A child that cancels its creator during its eager step finds the creator running, not
waiting: the cancellation is delivered at the creator's next await, a turn later."""
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


async def child(creator):
    say(f"child: creator.cancel() -> {creator.cancel()}")


async def creator(loop):
    me = asyncio.current_task()
    loop.create_task(child(me))
    say(f"creator goes on; cancelling() -> {me.cancelling()}")
    try:
        await asyncio.sleep(0)
    except asyncio.CancelledError:
        say("creator: CancelledError at its next await")
        raise


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    task = loop.create_task(creator(loop))  # the loop is not running yet: lazy
    run_turns(loop, 2)
    say(f"creator cancelled: {task.cancelled()}")
    loop.close()


scenario()
