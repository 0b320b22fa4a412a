"""async_tree_io_tg: pyperformance's async_tree_io_tg, a TaskGroup tree whose leaves all sleep 50 ms.

async_tree_io with ``async with asyncio.TaskGroup()`` and a create_task()
per child at every node instead of gather(). Every leaf awaits
asyncio.sleep(0.05), real time, so the wall time per task has a floor of
893 ns: the loops are compared on CPU time per task. Tasks start lazily.

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
    sys.exit(_async_tree_tg.main("async_tree_io_tg", _async_tree_tg.IOTaskGroupTree))
