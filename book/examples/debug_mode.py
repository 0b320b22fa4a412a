"""asyncio's debug mode meets two mistakes: a coroutine that blocks the loop
with a synchronous call, and a coroutine that is called but never awaited.
Chapter 0 of the looplab book; run it:

    python3 book/examples/debug_mode.py

Without debug=True below, PYTHONASYNCIODEBUG=1 or python3 -X dev turns debug mode on.
"""
import asyncio
import logging
import platform
import sys
import time

# asyncio reports through the "asyncio" logger; send it to stdout, one line per record.
logging.basicConfig(stream=sys.stdout, format="%(name)s %(levelname)s: %(message)s")


async def heartbeat():
    for _ in range(3):
        await asyncio.sleep(0.05)


async def blocks_the_loop():
    time.sleep(0.2)  # synchronous: the whole loop waits, heartbeat included


async def tick():
    pass


async def main():
    loop = asyncio.get_running_loop()
    print(f"CPython {platform.python_version()}: debug {loop.get_debug()}, "
          f"slow_callback_duration {loop.slow_callback_duration} s")
    tick()  # the mistake: no await, so tick() never runs
    await asyncio.gather(heartbeat(), blocks_the_loop())


asyncio.run(main(), debug=True)
