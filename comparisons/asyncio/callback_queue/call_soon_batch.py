"""call_soon_batch: queue N no-op callbacks, then run them all in one turn.

One op = one callback queued with call_soon and run.  N = 1,000,000
(100,000 with --quick), as in the C++ benchmark of the same name.

asyncio polls its selector once per turn (a select/epoll call with timeout 0);
here that is one poll per million callbacks, so it does not show.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def noop():
    pass


def run_batch(loop, ops):
    call_soon = loop.call_soon  # looked up once: we time call_soon, not the lookup
    for _ in range(ops):
        call_soon(noop)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("call_soon_batch", run_batch, ops=1_000_000, quick_ops=100_000))
