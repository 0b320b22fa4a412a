"""timer_churn: schedule a 60 s timeout and cancel it at once, with 1,000 long-lived timers in the heap.

The "timeout that almost never fires" pattern of a server.  One op =
call_later(60.0, cb) and cancel() of the returned handle.  After every 1,000
ops the loop runs one turn (stop(); run_forever()), so its heap hygiene runs as
it would in a server.  N = 100,000 (10,000 with --quick).

The 1,000 long-lived timers (now + 3600 s + i, i = 0..999, none fires) are
scheduled at the start of each batch, inside the timed part: 1,000 call_at
calls against 100,000 ops, about 1% of the batch (10% with --quick).

What each turn does in asyncio: the heap holds the 1,000 long-lived timers
plus the 1,000 cancelled ones.  Exactly half are cancelled, and asyncio
compacts only when strictly more than half are, so there is no rebuild: the
cancelled timers (deadline now + 60 s, before every long-lived one) sit at the
head and the turn pops them one by one.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

LONG_LIVED = 1_000
OPS_PER_TURN = 1_000


def noop():
    pass


def run_batch(loop, ops):
    now = loop.time()
    for i in range(LONG_LIVED):
        loop.call_at(now + 3600.0 + i, noop)
    call_later = loop.call_later  # looked up once: we time call_later, not the lookup
    done = 0
    while done < ops:
        chunk = min(OPS_PER_TURN, ops - done)
        for _ in range(chunk):
            call_later(60.0, noop).cancel()
        done += chunk
        loop.stop()  # stop() before run_forever(): run exactly one turn
        loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("timer_churn", run_batch, ops=100_000, quick_ops=10_000))
