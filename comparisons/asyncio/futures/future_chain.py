"""future_chain: a future's done callback creates, hooks and resolves the next future, N hops.

One op = one hop: the done callback of future k creates future k+1 with
loop.create_future(), adds itself as its done callback and resolves it with
set_result(None). Done callbacks never run inline (they are queued with
call_soon), so each hop is one turn of the loop, selector poll included.
N = 100,000 hops (10,000 with --quick); the last hop calls stop().
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def run_batch(loop, ops):
    remaining = ops
    create_future = loop.create_future

    def hop(fut):
        nonlocal remaining
        remaining -= 1
        if remaining == 0:
            loop.stop()
            return
        following = create_future()
        following.add_done_callback(hop)
        following.set_result(None)  # hop runs again in the next turn, never in this one

    first = create_future()
    first.add_done_callback(hop)
    first.set_result(None)
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("future_chain", run_batch, ops=100_000, quick_ops=10_000))
