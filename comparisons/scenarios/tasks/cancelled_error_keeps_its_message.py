"""A task ends cancelled with the message of the CancelledError its coroutine ended with:
the waited future's, a replacement's, or the first one's even after a second cancel()."""
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


async def waits(future):
    await future


async def replaces(future):
    try:
        await future
    except asyncio.CancelledError:
        say("replaces: raises CancelledError('replaced')")
        raise asyncio.CancelledError("replaced")


async def cancels_again(future):
    try:
        await future
    except asyncio.CancelledError:
        say("cancels_again: cancel('second'), then re-raises")
        asyncio.current_task().cancel("second")
        raise


def report(name, task):
    try:
        task.result()
    except asyncio.CancelledError as error:
        say(f"{name}: cancelling() -> {task.cancelling()}, result() raises "
            f"CancelledError('{error}')")


def scenario():
    loop = new_virtual_loop()
    futures = [loop.create_future() for _ in range(3)]
    plain = loop.create_task(waits(futures[0]))
    replacing = loop.create_task(replaces(futures[1]))
    again = loop.create_task(cancels_again(futures[2]))
    run_turns(loop, 1)
    futures[0].cancel("from outside")  # not through the task
    replacing.cancel("sent")
    again.cancel("first")
    run_turns(loop, 1)
    report("waits", plain)
    report("replaces", replacing)
    report("cancels_again", again)
    loop.close()


scenario()
