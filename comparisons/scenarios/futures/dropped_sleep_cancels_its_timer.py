"""A sleep nobody waits for any more cancels its timer, which then never runs.

In CPython, dropping the last reference to a suspended asyncio.sleep()
coroutine closes it, and its `finally` cancels the timer; in looplab,
dropping the sleep future cancels its timer.
"""
import asyncio
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def timers(loop):
    return f"scheduled={len(loop._scheduled)} cancelled timers={loop._timer_cancelled_count}"


def main():
    loop = new_virtual_loop()

    def start_and_drop():
        coro = asyncio.sleep(1.0)
        fut = coro.send(None)
        fut.add_done_callback(lambda f: print("done callback ran"))
        print(f"t={loop.time():.3f} sleep(1.0) started: {timers(loop)}")
        del coro, fut
        gc.collect()
        print(f"t={loop.time():.3f} sleep dropped: {timers(loop)}")

    def later():
        print(f"t={loop.time():.3f} timer: {timers(loop)}")
        loop.stop()

    loop.call_soon(start_and_drop)
    loop.call_later(2.0, later)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()


main()
