"""wait_for(x, 0): a done future gives its result at once; a pending one is cancelled and waited
for; a coroutine never starts."""
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


async def never():
    say("coroutine started?!")
    return 1


async def main(loop):
    done = loop.create_future()
    done.set_result(4)
    say(f"done future -> {await asyncio.wait_for(done, 0)}")
    pending = loop.create_future()
    try:
        await asyncio.wait_for(pending, 0)
    except TimeoutError:
        say(f"pending future -> TimeoutError, future cancelled: {pending.cancelled()}")
    try:
        await asyncio.wait_for(never(), 0)
    except TimeoutError:
        say("coroutine -> TimeoutError")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main(loop))
    while not task.done():
        run_turns(loop, 1)
    say(f"main done; clock still at {loop.time():.3f}")
    loop.close()


scenario()
