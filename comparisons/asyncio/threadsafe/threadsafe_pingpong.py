"""threadsafe_pingpong: a thread posts a callback and waits until the loop
has run it, then posts the next.

One op = one round trip.  The same workload as the C++ benchmark of the same
name (bench/threadsafe/): the callback wakes the waiting thread (here a
threading.Semaphore, there a futex) and stops the loop after the last trip.
"""
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def run_batch(loop, ops):
    answered = threading.Semaphore(0)

    def answer(last):
        answered.release()
        if last:
            loop.stop()

    def ping():
        call_soon_threadsafe = loop.call_soon_threadsafe
        for i in range(1, ops + 1):
            call_soon_threadsafe(answer, i == ops)
            answered.acquire()

    pinger = threading.Thread(target=ping)
    loop.call_soon(pinger.start)
    loop.run_forever()
    pinger.join()


if __name__ == "__main__":
    sys.exit(gbench.main("threadsafe_pingpong", run_batch, ops=20_000, quick_ops=2_000))
