"""timers_cancel_half: schedule N already-due timers in random order, cancel every second one, run one turn.

One op = one timer scheduled with call_at (half of them cancelled, half run).
N = 100,000 (10,000 with --quick).  Deadlines and order as in timers_due
(now - 1 s ... now - N s, shuffled once by random.Random(42)); the handles at
even positions in scheduling order (0, 2, 4, ...) are cancelled before the
turn.  That is exactly half, and asyncio compacts its heap only when strictly
more than half are cancelled, so this turn does not rebuild the heap: it pops
cancelled timers from the head, moves every due timer (cancelled or not) to the
ready queue, and skips the cancelled ones there.
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
    handles = [call_at(now - offset, noop) for offset in past_offsets(ops)]
    for handle in handles[::2]:
        handle.cancel()
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()


past_offsets(100_000)  # built here, so no timed batch pays for the shuffle
past_offsets(10_000)

if __name__ == "__main__":
    sys.exit(gbench.main("timers_cancel_half", run_batch, ops=100_000, quick_ops=10_000))
