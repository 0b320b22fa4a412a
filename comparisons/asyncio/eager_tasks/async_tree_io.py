"""async_tree_io: pyperformance's async_tree_io, a gather() tree whose leaves all sleep 50 ms.

Every leaf awaits asyncio.sleep(0.05), real time (a future and a timer
each), so the wall time per task has a floor of 50 ms / 55,986 = 893 ns that
no loop can go under: the loops are compared on CPU time per task. Tasks start
lazily.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree, and what the twins change from pyperformance: _async_tree.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree
import _async_tree  # noqa: E402

if __name__ == "__main__":
    sys.exit(_async_tree.main("async_tree_io", _async_tree.IOAsyncTree, eager=False))
