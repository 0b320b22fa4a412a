"""async_tree_cpu_io_mixed_eager: pyperformance's async_tree_eager_cpu_io_mixed, eager tasks.

async_tree_cpu_io_mixed (its CPU part left out) with
asyncio.eager_task_factory: the leaves that return at once are done inside
create_task(). Compared on CPU time per task.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree, and what the twins change from pyperformance: _async_tree.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree
import _async_tree  # noqa: E402

REQUIRES_PYTHON = "3.12"  # asyncio.eager_task_factory

if __name__ == "__main__":
    sys.exit(_async_tree.main("async_tree_cpu_io_mixed_eager", _async_tree.CpuIoMixedAsyncTree, eager=True))
