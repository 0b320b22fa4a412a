"""async_tree_cpu_io_mixed_tg: pyperformance's async_tree_cpu_io_mixed_tg, a TaskGroup tree, its CPU part left out.

async_tree_cpu_io_mixed with ``async with asyncio.TaskGroup()`` and a
create_task() per child at every node instead of gather(): half the leaves
return at once (pyperformance's math.factorial(500), left out on both sides),
the others do memoization's work. Compared on CPU time per task. Tasks start
lazily.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree: _async_tree_tg.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree_tg
import _async_tree_tg  # noqa: E402

REQUIRES_PYTHON = "3.11"  # asyncio.TaskGroup

if __name__ == "__main__":
    sys.exit(_async_tree_tg.main("async_tree_cpu_io_mixed_tg", _async_tree_tg.CpuIoMixedTaskGroupTree))
