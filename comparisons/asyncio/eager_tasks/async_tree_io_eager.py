"""async_tree_io_eager: pyperformance's async_tree_eager_io: async_tree_io with eager tasks.

Every leaf sleeps 50 ms, real time; the loop's task factory is
asyncio.eager_task_factory, so the whole tree is built inside the root's
first step, down to the leaves' timers. Compared on CPU time per task, as
async_tree_io.

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
    sys.exit(_async_tree.main("async_tree_io_eager", _async_tree.IOAsyncTree, eager=True))
