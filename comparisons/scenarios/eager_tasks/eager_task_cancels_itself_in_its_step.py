"""A task that cancels itself in its eager step is cancelled when the step ends: at once if
it returns, or through the future it then awaits, which is cancelled straight away."""
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


async def returns():
    say(f"returns: cancel() -> {asyncio.current_task().cancel()}")
    return 1


async def waits(future):
    say(f"waits: cancel() -> {asyncio.current_task().cancel()}")
    try:
        await future
    except asyncio.CancelledError:
        say("waits: CancelledError")
        raise


async def main(loop):
    future = loop.create_future()
    first = loop.create_task(returns())
    say(f"returns: done {first.done()}, cancelled {first.cancelled()}")
    second = loop.create_task(waits(future))
    say(f"waits: done {second.done()}; its future cancelled {future.cancelled()}")
    await asyncio.sleep(0)
    say(f"waits: cancelled {second.cancelled()}")


def scenario():
    loop = new_virtual_loop()
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main(loop))  # the loop is not running yet: lazy
    run_turns(loop, 2)
    loop.close()


scenario()
