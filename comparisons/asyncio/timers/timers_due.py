"""timers_due: schedule N timers that are already due, in random order, then run one turn.

One op = one timer scheduled with call_at and run.  N = 100,000 (10,000 with
--quick).  The deadlines are N distinct past times, now - 1 s ... now - N s,
scheduled in an order shuffled once by random.Random(42) (the shuffle is made
before the timed batches and reused).  The turn (stop(); run_forever()) polls
with timeout 0, pops every timer from the heap onto the ready queue, and runs
them in deadline order: N heap pushes and N heap pops.
"""
import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def noop():
    pass


@functools.lru_cache(maxsize=None)
def past_offsets(ops):
    """Seconds before now for each timer: 1.0 ... ops, in a fixed shuffled order."""
    offsets = [float(k + 1) for k in range(ops)]
    random.Random(42).shuffle(offsets)
    return offsets


def run_batch(loop, ops):
    call_at = loop.call_at  # looked up once: we time call_at, not the lookup
    now = loop.time()
    for offset in past_offsets(ops):
        call_at(now - offset, noop)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()


past_offsets(100_000)  # built here, so no timed batch pays for the shuffle
past_offsets(10_000)

if __name__ == "__main__":
    sys.exit(gbench.main("timers_due", run_batch, ops=100_000, quick_ops=10_000))
