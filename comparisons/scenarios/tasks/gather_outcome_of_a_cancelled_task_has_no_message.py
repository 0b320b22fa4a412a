"""gather(return_exceptions=True) puts a new CancelledError in a cancelled child's place, made
from the child's _cancel_message. A task clears that message as it ends cancelled, so its
outcome has none, whatever cancel() was given; a cancelled future keeps its message."""
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


async def slow():
    await asyncio.sleep(1)
    return 1


def describe(outcome):
    if isinstance(outcome, asyncio.CancelledError):
        return f"CancelledError('{outcome}')"
    return f"value {outcome}"


async def main(loop):
    waiting = loop.create_task(slow())
    unstarted = loop.create_task(slow())
    plain = loop.create_future()
    outcomes = asyncio.gather(waiting, unstarted, plain, return_exceptions=True)
    unstarted.cancel("before its first step")
    await asyncio.sleep(0)
    waiting.cancel("while it waits")
    plain.cancel("a future's")
    results = await outcomes
    say(f"waiting: {describe(results[0])}")
    say(f"unstarted: {describe(results[1])}")
    say(f"plain: {describe(results[2])}")


def scenario():
    loop = new_virtual_loop()
    loop.create_task(main(loop))
    run_turns(loop, 5)
    loop.close()


scenario()
