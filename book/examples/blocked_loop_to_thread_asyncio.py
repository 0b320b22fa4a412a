"""A heartbeat's lateness while a coroutine makes a blocking call: first in
the coroutine itself, then through asyncio.to_thread(). Chapter 10 of the
looplab book, the twin of examples/executor/blocked_loop_to_thread.cpp;
run it:

    python3 book/examples/blocked_loop_to_thread_asyncio.py

A heartbeat task sleeps 20 ms at a time on the real clock and notes how late
each wake-up was. The main coroutine makes a synchronous call of 200 ms (a
sleep here; a blocking read or a synchronous database driver behaves the
same) twice. For each, it prints the thread the call ran on, how many beats
the loop ran while the call lasted, and the worst lateness of a beat that
waited while it ran, in whole milliseconds.
"""
import asyncio
import threading
import time

INTERVAL = 0.020  # the heartbeat's period
CALL = 0.200      # how long the blocking call takes


def blocking_call(loop_thread):
    time.sleep(CALL)  # the synchronous call
    thread = threading.current_thread()
    return "the loop's thread" if thread is loop_thread else thread.name


async def heartbeat(beats):
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + INTERVAL
        await asyncio.sleep(INTERVAL)
        beats.append((due, loop.time()))


def report(how, thread, beats, start, end):
    during = sum(1 for _, ran in beats if start < ran < end)
    # A beat that waited while the call ran: due before it ended, run after it began.
    late = max((ran - due for due, ran in beats if due <= end and ran >= start), default=0.0)
    print(f"{how:<22} {thread:<18} {during:>6} {round(late * 1000):>13}")


async def main():
    loop = asyncio.get_running_loop()
    loop_thread = threading.current_thread()
    beats = []
    beating = asyncio.create_task(heartbeat(beats))
    print(f"heartbeat every {round(INTERVAL * 1000)} ms; "
          f"a coroutine makes a {round(CALL * 1000)} ms blocking call, twice")
    print(f"{'the call':<22} {'ran on':<18} {'beats':>6} {'worst late ms':>13}")

    await asyncio.sleep(0.1)
    start = loop.time()
    thread = blocking_call(loop_thread)  # in the coroutine: the loop waits
    end = loop.time()
    await asyncio.sleep(0.1)  # the heartbeat catches up
    report("in the coroutine", thread, beats, start, end)

    start = loop.time()
    thread = await asyncio.to_thread(blocking_call, loop_thread)  # the loop goes on
    end = loop.time()
    await asyncio.sleep(0.1)
    report("through to_thread()", thread, beats, start, end)

    beating.cancel()


asyncio.run(main())
