"""async_tree_memoization_eager: pyperformance's async_tree_eager_memoization, eager tasks.

async_tree_memoization with asyncio.eager_task_factory: a leaf that hits the
cache is done inside create_task() and never reaches the loop. Compared on
CPU time per task.

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
    sys.exit(_async_tree.main("async_tree_memoization_eager", _async_tree.MemoizationAsyncTree, eager=True))
