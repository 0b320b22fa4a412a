"""What the async_tree_*_tg twins share: pyperformance's TaskGroup trees, timed per task.

pyperformance's async_tree_<variant>_tg benchmarks (bm_async_tree with
use_task_groups) build the very tree async_tree_<variant> builds, but each
node opens ``async with asyncio.TaskGroup() as group:`` and creates a task per
child with ``group.create_task()``, where the gather() tree hands its child
coroutines to asyncio.gather().  The twins async_tree_<variant>_tg.py run it
with this module, the same trees as bench/task_group/async_tree_tg_bench.cpp.

Everything else is stage 07's: the tree's shape, the leaves' work, the draws
and what the twins change from pyperformance are in
comparisons/asyncio/eager_tasks/_async_tree.py, which this module imports.
The tasks start lazily, in the order gather() starts them, so a TaskGroup
tree's leaves draw the same numbers as its gather() twin's: the same leaves
hit the cache and sleep.

One op = one task of the tree: the groups create 6 + 6**2 + ... + 6**6 =
55,986 of them; the root is the batch's own task and not counted.  One batch
= one tree (a 4-level tree of 1,554 tasks with --quick).
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "eager_tasks"))  # for _async_tree
import _async_tree  # noqa: E402


class TaskGroupTree:
    """The TaskGroup recursion, a mixin put before a variant's AsyncTree class."""

    async def recurse_with_task_group(self, recurse_level):
        if recurse_level == 0:
            await self.workload_func()
            return
        async with asyncio.TaskGroup() as group:
            for _ in range(_async_tree.BRANCHES):
                group.create_task(self.recurse_with_task_group(recurse_level - 1))

    async def run(self):
        await self.recurse_with_task_group(self.levels)


class NoneTaskGroupTree(TaskGroupTree, _async_tree.NoneAsyncTree):
    """async_tree_none's leaves: nothing."""


class IOTaskGroupTree(TaskGroupTree, _async_tree.IOAsyncTree):
    """async_tree_io's leaves: sleep 50 ms."""


class MemoizationTaskGroupTree(TaskGroupTree, _async_tree.MemoizationAsyncTree):
    """async_tree_memoization's leaves: a cache, a sleep on a miss."""


class CpuIoMixedTaskGroupTree(TaskGroupTree, _async_tree.CpuIoMixedAsyncTree):
    """async_tree_cpu_io_mixed's leaves: half return at once, half as memoization."""


def main(name, tree_class):
    """Time one tree per batch under gbench, as the twin `name`; lazy tasks."""
    return _async_tree.main(name, tree_class, eager=False)
