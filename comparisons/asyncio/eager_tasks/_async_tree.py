"""What the async_tree twins share: pyperformance's bm_async_tree, timed per task.

pyperformance's benchmark (pyperformance/data-files/benchmarks/bm_async_tree/
run_benchmark.py) awaits asyncio.gather() on a tree 6 levels deep with 6
branches per node; the 6**6 = 46,656 leaves do the variant's work.  The
twins async_tree_<variant>.py (tasks started lazily, asyncio's default) and
async_tree_<variant>_eager.py (loop.set_task_factory(asyncio.eager_task_factory),
pyperformance's async_tree_eager_<variant>) run it with this module, the same
tree as bench/eager_tasks/async_tree_bench.cpp.

One op = one task of the tree: gather() wraps each child coroutine in a task
(loop.create_task, through the loop's task factory), so a tree has
6 + 6**2 + ... + 6**6 = 55,986 of them; the root is the batch's own task and
not counted.  One batch = one tree (a 4-level tree of 1,554 tasks with
--quick).

Where the twins differ from pyperformance, on purpose, and the same way in the
C++:

* the draws come from a 64-bit linear congruential generator written out on
  both sides (Percentages below), not from random's Mersenne Twister: the same
  rates (90% memoizable, 50% CPU), and the very same leaves on both sides;
* each tree starts with an empty cache and the generator's seed, so every
  batch is the same tree (pyperformance keeps its cache across runs);
* cpu_io_mixed's CPU part, math.factorial(500), is left out: a leaf that
  pyperformance sends to it returns at once.  It is CPython's C code
  (about 8 us here), and a C++ factorial would be C-speed bignum arithmetic
  too: it would add about the same 3.5 us per task to both sides and measure
  multiplication, not the loop.  What is left is the loop's share.
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

LEVELS = 6               # pyperformance's NUM_RECURSE_LEVELS
QUICK_LEVELS = 4         # --quick: a smaller tree of the same branching
BRANCHES = 6             # NUM_RECURSE_BRANCHES
IO_SLEEP_S = 0.05        # IO_SLEEP_TIME: a leaf's mock I/O, real time
MEMOIZABLE_PERCENT = 90  # MEMOIZABLE_PERCENTAGE
CPU_PERCENT = 50         # CPU_PROBABILITY, as a percentage
SEED = 0                 # RANDOM_SEED

MASK_64 = (1 << 64) - 1


def tree_tasks(levels):
    """The tasks of a tree `levels` deep, its root not counted: 55,986 for 6."""
    return sum(BRANCHES ** level for level in range(1, levels + 1))


class Percentages:
    """Draws from 1 to 100: Knuth's MMIX linear congruential generator, the same
    three operations as the C++ side's, so both draw the same numbers."""

    def __init__(self):
        self.state = SEED

    def draw(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & MASK_64
        return (self.state >> 33) % 100 + 1


class AsyncTree:
    """pyperformance's AsyncTree with gather(); a subclass is a variant's leaf work."""

    def __init__(self, levels, eager):
        self.levels = levels
        self.eager = eager
        self.cache = {}
        self.percentages = Percentages()

    async def mock_io_call(self):
        await asyncio.sleep(IO_SLEEP_S)

    async def workload_func(self):
        raise NotImplementedError("each variant's subclass has its own")

    async def recurse_with_gather(self, recurse_level):
        if recurse_level == 0:
            await self.workload_func()
            return
        await asyncio.gather(*[self.recurse_with_gather(recurse_level - 1)
                               for _ in range(BRANCHES)])

    async def run(self):
        if self.eager:  # pyperformance's EagerMixin: the root itself started lazily
            asyncio.get_running_loop().set_task_factory(asyncio.eager_task_factory)
        await self.recurse_with_gather(self.levels)


class NoneAsyncTree(AsyncTree):
    async def workload_func(self):
        return


class IOAsyncTree(AsyncTree):
    async def workload_func(self):
        await self.mock_io_call()


class MemoizationAsyncTree(AsyncTree):
    async def workload_func(self):
        data = self.percentages.draw()
        if data <= MEMOIZABLE_PERCENT:
            if self.cache.get(data):
                return data
            self.cache[data] = True
        await self.mock_io_call()
        return data


class CpuIoMixedAsyncTree(MemoizationAsyncTree):
    async def workload_func(self):
        if self.percentages.draw() <= CPU_PERCENT:
            return 0  # pyperformance: math.factorial(500), left out (see above)
        return await MemoizationAsyncTree.workload_func(self)


def main(name, tree_class, eager):
    """Time one tree per batch under gbench, as the twin `name`."""
    levels_of = {tree_tasks(levels): levels for levels in (LEVELS, QUICK_LEVELS)}

    def run_batch(loop, ops):
        tree = tree_class(levels_of[ops], eager)
        loop.run_until_complete(tree.run())

    return gbench.main(name, run_batch, ops=tree_tasks(LEVELS), quick_ops=tree_tasks(QUICK_LEVELS))
