"""Cancelling a sleep cancels its timer, which stays in the heap until the next turn drops it.

asyncio.sleep() cancels its timer in a `finally` when the future it waits on
is cancelled; looplab's sleep future does it in cancel(). The twin runs
CPython's sleep() by hand: cancel() cancels its future, and resuming sleep()
runs its `finally` at once (a Task would resume it one turn later).
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def timers(loop):
    return f"scheduled={len(loop._scheduled)} cancelled timers={loop._timer_cancelled_count}"


def main():
    global turn
    loop = new_virtual_loop()

    def sleep_and_cancel():
        coro = asyncio.sleep(1.0)
        fut = coro.send(None)  # sleep() made its future and its timer, and waits
        print(f"turn {turn}: sleep(1.0) started: {timers(loop)}")
        fut.add_done_callback(
            lambda f: print(f"turn {turn}: done callback: cancelled() -> {f.cancelled()}"))
        cancelled = fut.cancel()
        try:
            coro.send(None)  # sleep() resumes: CancelledError, and its finally cancels the timer
        except asyncio.CancelledError:
            pass
        print(f"turn {turn}: cancel() -> {cancelled}: {timers(loop)}")

    loop.call_soon(sleep_and_cancel)
    for _ in range(2):
        turn += 1
        loop.stop()
        loop.run_forever()
        print(f"after turn {turn}: {timers(loop)} t={loop.time():.3f}")
    loop.close()


main()
