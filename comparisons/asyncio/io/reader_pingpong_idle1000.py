"""reader_pingpong_idle1000: reader_pingpong with 1,000 idle registered descriptors.

The same round trip as reader_pingpong, but the selector also watches 1,000
descriptors (500 socket pairs) that never become readable. select() rebuilds
and scans its bitmaps on every call, so each turn costs time in proportion to
the descriptors watched, not to the ones ready: chapter 3's picture of O(n).
One op = one round trip. N = 5,000 round trips (500 with --quick).
"""
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for reader_pingpong
import gbench  # noqa: E402
import reader_pingpong  # noqa: E402

# 1,000 idle descriptors plus the interpreter's own come close to the default
# limit of 1,024 open files: raise the soft limit to the hard one.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))


def run_batch(loop, ops):
    reader_pingpong.run_batch(loop, ops, idle=1000)


if __name__ == "__main__":
    sys.exit(gbench.main("reader_pingpong_idle1000", run_batch, ops=5_000, quick_ops=500,
                         selector="select"))
