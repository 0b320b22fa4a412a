"""async_tree_none: pyperformance's async_tree_none, a gather() tree whose leaves do nothing.

A leaf returns at once: the tree is nothing but tasks and gathers. Tasks
start lazily (asyncio's default): each child's first step is a turn later.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree, and what the twins change from pyperformance: _async_tree.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree
import _async_tree  # noqa: E402

if __name__ == "__main__":
    sys.exit(_async_tree.main("async_tree_none", _async_tree.NoneAsyncTree, eager=False))
