"""future_resolve: create a future, add a done callback, resolve it; a turn runs the callbacks.

One op = one future created with loop.create_future(), given a done callback
(a no-op function) and resolved with set_result(), which queues the callback;
after every 1,000 futures one turn (stop(); run_forever()) runs their 1,000
callbacks, so each turn's selector poll is shared by 1,000 ops. N = 100,000
futures (10,000 with --quick). Each future is dropped right after set_result():
the queued callback's Handle holds it until the callback has run.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

PER_TURN = 1_000


def on_done(fut):
    pass


def run_batch(loop, ops):
    create_future = loop.create_future  # looked up once: we time the future, not the lookup
    for _ in range(ops // PER_TURN):
        for i in range(PER_TURN):
            fut = create_future()
            fut.add_done_callback(on_done)
            fut.set_result(i)
        loop.stop()  # stop() before run_forever(): run exactly one turn
        loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("future_resolve", run_batch, ops=100_000, quick_ops=10_000))
