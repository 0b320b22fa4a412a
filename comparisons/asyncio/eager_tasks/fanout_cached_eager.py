"""fanout_cached_eager: fanout_cached with eager tasks: the 90 cache hits never reach the loop.

One op = one child task, as in fanout_cached (N = 100,000, 10,000 with
--quick), on a loop whose task factory is asyncio.eager_task_factory: a
child's first step runs inside loop.create_task().  A hit returns there, so
it is done before create_task() returns: no callback, no turn, and gather()
takes it into account at once (3.12+).  Only the 10 misses go on as tasks,
and a round takes three turns instead of four (the misses' second steps;
their callbacks; the parent's wakeup).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for fanout_cached
import fanout_cached  # noqa: E402

REQUIRES_PYTHON = "3.12"  # asyncio.eager_task_factory

if __name__ == "__main__":
    sys.exit(fanout_cached.main("fanout_cached_eager", eager=True))
