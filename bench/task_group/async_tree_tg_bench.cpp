// Stage 08 workloads: pyperformance's async_tree_*_tg benchmarks, the
// async_tree family with a TaskGroup at every node instead of gather(), the
// same trees as the twins in comparisons/asyncio/task_group/ (their shared
// code: _async_tree_tg.py).
//
// The trees are stage 07's (eager_tasks/async_tree.hpp: the constants, the
// draws, the leaves): recurse_with_task_group(level) opens a group whose
// block creates 6 children, recursions of level - 1, with create_task(), and
// waits for them when the block ends; 6 levels deep; at level 0, a leaf does
// its variant's work:
//
//   async_tree_none_tg          nothing
//   async_tree_io_tg            sleep 50 ms, real time (a future and a timer)
//   async_tree_memoization_tg   about 90% of the leaves return at once from
//                               a cache, the others sleep 50 ms
//   async_tree_cpu_io_mixed_tg  half the leaves return at once
//                               (pyperformance's CPU work, left out), the
//                               others as memoization
//
// The tasks start lazily (the loop's default), in the order gather() starts
// them in the stage 07 trees, so the leaves draw the same numbers: the same
// leaves hit the cache and sleep in both.
//
// One operation = one task of the tree: the groups create 6 + 36 + ... + 6^6
// = 55,986 of them (the root is the batch's own task, not counted; 1,554
// in the report's quick mode, tree_levels()). One batch = one tree.
// Google Benchmark reports wall and CPU time per task; a sleeping
// variant's wall time has a floor of 50 ms / 55,986 = 893 ns a task (the
// full tree), so
// the report compares the loops on CPU.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <string>

#include "eager_tasks/async_tree.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/task_group.hpp"

namespace {

using looplab::Coro;
using looplab::EventLoop;
using looplab::TaskGroup;
using namespace looplab::bench::async_tree;  // the constants, AsyncTree, the leaves

// ---- the tree ---------------------------------------------------------------

Coro<int> recurse_with_task_group(AsyncTree* tree, int recurse_level);

// The block of `async with asyncio.TaskGroup() as group:` at one node: a task
// per child, started lazily; the group waits for them after the block.
Coro<void> create_children(TaskGroup* group, AsyncTree* tree, int child_level) {
  for (int i = 0; i < kBranches; ++i)
    group->create_task(recurse_with_task_group(tree, child_level));
  co_return;
}

Coro<int> recurse_with_task_group(AsyncTree* tree, int recurse_level) {
  if (recurse_level == 0) {
    int data = co_await tree->workload_func(tree);
    co_return data;
  }
  co_await looplab::task_group(create_children, tree, recurse_level - 1);
  co_return 0;
}

// One tree per batch, on the loop's default selector (the label says which).
void async_tree_tg_on(benchmark::State& state, WorkloadFunc workload_func) {
  EventLoop loop;
  const int levels = tree_levels();
  state.SetLabel(tree_label(loop, levels));
  long sum = 0;
  while (state.KeepRunningBatch(tree_tasks(levels))) {
    AsyncTree tree{&loop, workload_func, false};
    sum += loop.run_until_complete(recurse_with_task_group(&tree, levels));
  }
  benchmark::DoNotOptimize(sum);
}

void async_tree_none_tg(benchmark::State& state) { async_tree_tg_on(state, none_workload); }
void async_tree_io_tg(benchmark::State& state) { async_tree_tg_on(state, io_workload); }
void async_tree_memoization_tg(benchmark::State& state) {
  async_tree_tg_on(state, memoization_workload);
}
void async_tree_cpu_io_mixed_tg(benchmark::State& state) {
  async_tree_tg_on(state, cpu_io_mixed_workload);
}

BENCHMARK(async_tree_none_tg);
BENCHMARK(async_tree_io_tg);
BENCHMARK(async_tree_memoization_tg);
BENCHMARK(async_tree_cpu_io_mixed_tg);

}  // namespace
