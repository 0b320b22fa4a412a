"""to_thread_roundtrip_pinned: to_thread_roundtrip with every thread of the process on CPU 0,
as the C++ benchmark of the same name pins them.

One op = one round trip. The loop's thread is pinned before the batch makes
its default executor, whose threads inherit the CPU set; the pinning is
restored after the batch.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
# Its own folder too: python3 -I (as the report runs twins) leaves it out.
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for to_thread_roundtrip
import gbench  # noqa: E402
from to_thread_roundtrip import run_batch as unpinned_batch  # noqa: E402


def run_batch(loop, ops):
    saved = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {0})  # this thread, and the threads it starts
    try:
        unpinned_batch(loop, ops)
    finally:
        os.sched_setaffinity(0, saved)


if __name__ == "__main__":
    sys.exit(gbench.main("to_thread_roundtrip_pinned", run_batch, ops=10_000, quick_ops=500))
