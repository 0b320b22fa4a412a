"""handle_cancel: queue N callbacks keeping their handles, cancel every second one, run one turn.

One op = one queued handle (half of them cancelled, and skipped by the turn).
N = 100,000 (10,000 with --quick).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def noop():
    pass


def run_batch(loop, ops):
    call_soon = loop.call_soon  # looked up once: we time call_soon, not the lookup
    handles = [call_soon(noop) for _ in range(ops)]
    for handle in handles[::2]:
        handle.cancel()
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("handle_cancel", run_batch, ops=100_000, quick_ops=10_000))
