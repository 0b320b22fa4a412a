"""async_tree_cpu_io_mixed: pyperformance's async_tree_cpu_io_mixed, its CPU part left out.

Each leaf draws: half of them (a draw up to 50) are pyperformance's CPU work,
math.factorial(500), left out on both sides (they return at once; why:
_async_tree.py); the other half do what async_tree_memoization's leaves do.
Compared on CPU time per task. Tasks start lazily.

One op = one task of the tree (6 levels of 6 branches: 55,986 tasks, the root
not counted); one batch = one tree (4 levels, 1,554 tasks, with --quick).
The tree, and what the twins change from pyperformance: _async_tree.py.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _async_tree
import _async_tree  # noqa: E402

if __name__ == "__main__":
    sys.exit(_async_tree.main("async_tree_cpu_io_mixed", _async_tree.CpuIoMixedAsyncTree, eager=False))
