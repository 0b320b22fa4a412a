"""sleep(0.25) completes at t=0.250: its timer sets the result, its done callbacks run a turn later.

asyncio.sleep() is a coroutine; looplab's sleep(loop, delay) is the future it
waits on. The twin runs CPython's own sleep() up to its wait (coro.send(None),
which needs a running loop: hence the first turn) and gets that future.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    sleeping = {}

    def start():
        coro = asyncio.sleep(0.25)
        fut = coro.send(None)  # sleep() made its future and its timer, and waits
        sleeping.update(coro=coro, fut=fut)
        print(f"t={loop.time():.3f} sleep(0.25) started: scheduled timers {len(loop._scheduled)}")
        fut.add_done_callback(
            lambda f: print(f"t={loop.time():.3f} done callback: result {f.result()}"))

    loop.call_soon(start)
    loop.call_later(0.2, lambda: print(
        f"t={loop.time():.3f} timer: sleep done() -> {sleeping['fut'].done()}"))
    loop.stop()
    loop.run_forever()  # turn 1: start()
    loop.run_until_complete(sleeping["fut"])
    print(f"t={loop.time():.3f} run_until_complete returned; "
          f"timers cancelled {loop._timer_cancelled_count}, scheduled {len(loop._scheduled)}")
    try:
        sleeping["coro"].send(None)  # let sleep() return (its finally cancels a timer that ran)
    except StopIteration:
        pass
    loop.close()


main()
