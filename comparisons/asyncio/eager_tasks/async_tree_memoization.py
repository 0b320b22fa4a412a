"""async_tree_memoization: pyperformance's async_tree_memoization: 90% of the leaves hit a cache.

Each leaf draws a key from 1 to 100: a key up to 90 seen before returns at
once (about 90% of the leaves); the others sleep 50 ms as in async_tree_io
(keys 91 to 100, and the first sighting of each other key). Compared on CPU
time per task. Tasks start lazily.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree, and what the twins change from pyperformance: _async_tree.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree
import _async_tree  # noqa: E402

if __name__ == "__main__":
    sys.exit(_async_tree.main("async_tree_memoization", _async_tree.MemoizationAsyncTree, eager=False))
