"""threadsafe_flood: 4 threads post 100,000 callbacks each to a running loop.

One op = one callback posted with call_soon_threadsafe and run.  The same
workload as the C++ benchmark of the same name (bench/threadsafe/): the
callback counts down and stops the loop at zero.  CPython's threads take
turns holding the GIL, and every post writes a byte to the self-pipe.
"""
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

POSTERS = 4


def run_batch(loop, ops):
    per_poster = ops // POSTERS
    remaining = [POSTERS * per_poster]

    def tick():
        remaining[0] -= 1
        if remaining[0] == 0:
            loop.stop()

    def post():
        call_soon_threadsafe = loop.call_soon_threadsafe
        for _ in range(per_poster):
            call_soon_threadsafe(tick)

    posters = [threading.Thread(target=post) for _ in range(POSTERS)]

    def start():
        for poster in posters:
            poster.start()

    loop.call_soon(start)
    loop.run_forever()
    for poster in posters:
        poster.join()


if __name__ == "__main__":
    sys.exit(gbench.main("threadsafe_flood", run_batch, ops=400_000, quick_ops=40_000))
