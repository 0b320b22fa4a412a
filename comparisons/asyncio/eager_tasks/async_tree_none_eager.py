"""async_tree_none_eager: pyperformance's async_tree_eager: async_tree_none with eager tasks.

The loop's task factory is asyncio.eager_task_factory: a task's first step
runs inside create_task(), so a leaf is done before gather() sees it, and a
gather() of done children is done when it returns (3.12+): the whole tree
runs inside the root's first step, and no task of it ever reaches the loop.

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
    sys.exit(_async_tree.main("async_tree_none_eager", _async_tree.NoneAsyncTree, eager=True))
