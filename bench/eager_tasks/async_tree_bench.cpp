// Stage 07 workloads: pyperformance's async_tree family (bm_async_tree), the
// same trees as the twins in comparisons/asyncio/eager_tasks/ (their shared
// code, _async_tree.py, says what they change from pyperformance, and why).
//
// A tree: recurse_with_gather(level) gathers 6 recursions of level - 1,
// 6 levels deep; at level 0, a leaf does its variant's work (async_tree.hpp:
// the constants, the draws and the leaves, shared with stage 08's TaskGroup
// trees):
//
//   async_tree_none          nothing
//   async_tree_io            sleep 50 ms, real time (a future and a timer)
//   async_tree_memoization   about 90% of the leaves return at once from a
//                            cache, the others sleep 50 ms
//   async_tree_cpu_io_mixed  half the leaves return at once (pyperformance's
//                            CPU work, left out), the others as memoization
//
// and each again as <name>_eager, with the loop's task factory set to
// eager_task_factory by the root (pyperformance's EagerMixin).
//
// One operation = one task of the tree: gather() wraps each child coroutine
// in a task, 6 + 36 + ... + 6^6 = 55,986 of them (the root is the batch's
// own task, not counted; 1,554 in the 4-level tree of the report's quick
// mode, tree_levels()). One batch = one tree. Google Benchmark reports
// wall and CPU time per task; a sleeping variant's wall time has a floor of
// 50 ms / 55,986 = 893 ns a task (the full tree), so the report compares
// the loops on CPU.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "eager_tasks/async_tree.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/gather.hpp"
#include "looplab/task.hpp"

namespace {

using looplab::Coro;
using looplab::EventLoop;
using looplab::Future;
using namespace looplab::bench::async_tree;  // the constants, AsyncTree, the leaves

// ---- the tree ---------------------------------------------------------------

Coro<int> recurse_with_gather(AsyncTree* tree, int recurse_level) {
  if (recurse_level == 0) {
    int data = co_await tree->workload_func(tree);
    co_return data;
  }
  std::vector<Coro<int>> children;
  children.reserve(kBranches);
  for (int i = 0; i < kBranches; ++i)
    children.push_back(recurse_with_gather(tree, recurse_level - 1));
  // A task per child, through the loop's task factory (asyncio's ensure_future).
  Future<std::vector<int>> all = looplab::gather(*tree->loop, std::move(children));
  co_await all;
  co_return 0;
}

Coro<int> run(AsyncTree* tree, int levels) {
  if (tree->eager) tree->loop->set_task_factory(looplab::eager_task_factory);
  int result = co_await recurse_with_gather(tree, levels);
  co_return result;
}

// One tree per batch, on the loop's default selector (the label says which).
void async_tree_on(benchmark::State& state, WorkloadFunc workload_func, bool eager) {
  EventLoop loop;
  const int levels = tree_levels();
  state.SetLabel(tree_label(loop, levels));
  long sum = 0;
  while (state.KeepRunningBatch(tree_tasks(levels))) {
    AsyncTree tree{&loop, workload_func, eager};
    sum += loop.run_until_complete(run(&tree, levels));
  }
  benchmark::DoNotOptimize(sum);
}

void async_tree_none(benchmark::State& state) { async_tree_on(state, none_workload, false); }
void async_tree_none_eager(benchmark::State& state) { async_tree_on(state, none_workload, true); }
void async_tree_io(benchmark::State& state) { async_tree_on(state, io_workload, false); }
void async_tree_io_eager(benchmark::State& state) { async_tree_on(state, io_workload, true); }
void async_tree_memoization(benchmark::State& state) {
  async_tree_on(state, memoization_workload, false);
}
void async_tree_memoization_eager(benchmark::State& state) {
  async_tree_on(state, memoization_workload, true);
}
void async_tree_cpu_io_mixed(benchmark::State& state) {
  async_tree_on(state, cpu_io_mixed_workload, false);
}
void async_tree_cpu_io_mixed_eager(benchmark::State& state) {
  async_tree_on(state, cpu_io_mixed_workload, true);
}

BENCHMARK(async_tree_none);
BENCHMARK(async_tree_none_eager);
BENCHMARK(async_tree_io);
BENCHMARK(async_tree_io_eager);
BENCHMARK(async_tree_memoization);
BENCHMARK(async_tree_memoization_eager);
BENCHMARK(async_tree_cpu_io_mixed);
BENCHMARK(async_tree_cpu_io_mixed_eager);

}  // namespace
