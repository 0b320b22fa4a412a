"""A waiter that release() woke, cancelled before it resumes, gives its place back; the place
goes to the next waiter. BoundedSemaphore refuses a release above its initial value."""
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


async def waiter(name, places):
    try:
        await places.acquire()
    except asyncio.CancelledError:
        say(f"{name} cancelled")
        raise
    say(f"{name} acquired")


def scenario():
    loop = new_virtual_loop()
    places = asyncio.BoundedSemaphore(2)
    tasks = {name: loop.create_task(waiter(name, places)) for name in "abcd"}
    run_turns(loop, 1)
    say(f"locked() -> {places.locked()}")
    places.release()
    places.release()
    say("release() twice wakes c and d")
    say(f"c.cancel() -> {tasks['c'].cancel()}")
    run_turns(loop, 1)
    say(f"locked() -> {places.locked()}")
    places.release()
    say("release(): both places free")
    try:
        places.release()
    except ValueError as error:
        say(f"ValueError: {error}")
    try:
        asyncio.Semaphore(-1)
    except ValueError as error:
        say(f"ValueError: {error}")
    loop.close()


scenario()
