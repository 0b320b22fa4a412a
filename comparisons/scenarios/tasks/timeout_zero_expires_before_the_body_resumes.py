"""timeout(0): the expiry is call_soon(), queued ahead of the body's next step, which then gets
CancelledError."""
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


async def body():
    say("body starts, yields with sleep(0)")
    await asyncio.sleep(0)
    say("body resumed?!")
    return 1


async def main():
    try:
        async with asyncio.timeout(0):
            await body()
    except TimeoutError:
        say("TimeoutError")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main())
    run_turns(loop, 2)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
