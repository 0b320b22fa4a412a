// Stage 07 workloads: pyperformance's async_tree family (bm_async_tree), the
// same trees as the twins in comparisons/asyncio/eager_tasks/ (their shared
// code, _async_tree.py, says what they change from pyperformance, and why).
//
// A tree: recurse_with_gather(level) gathers 6 recursions of level - 1,
// 6 levels deep; at level 0, a leaf does its variant's work:
//
//   async_tree_none          nothing
//   async_tree_io            sleep 50 ms, real time (a future and a timer)
//   async_tree_memoization   draw a key from 1 to 100; a key up to 90 seen
//                            before returns at once (about 90% of the leaves),
//                            the others sleep 50 ms
//   async_tree_cpu_io_mixed  draw: up to 50, pyperformance computes
//                            math.factorial(500), which is left out on both
//                            sides (the leaf returns at once: C-speed bignum
//                            arithmetic on both sides, ~8 us, it would measure
//                            multiplication, not the loop); else as memoization
//
// and each again as <name>_eager, with the loop's task factory set to
// eager_task_factory by the root (pyperformance's EagerMixin).
//
// One operation = one task of the tree: gather() wraps each child coroutine
// in a task, 6 + 36 + ... + 6^6 = 55,986 of them (the root is the batch's
// own task, not counted). One batch = one tree. Google Benchmark reports
// wall and CPU time per task; a sleeping variant's wall time has a floor of
// 50 ms / 55,986 = 893 ns a task, so the report compares the loops on CPU.
//
// The draws: both sides use the same 64-bit linear congruential generator
// (Percentages), so the same leaves hit the cache and sleep on both.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::EventLoop;
using looplab::Future;

// pyperformance's constants.
constexpr int kLevels = 6;              // NUM_RECURSE_LEVELS
constexpr int kBranches = 6;            // NUM_RECURSE_BRANCHES
constexpr auto kIoSleep = 50ms;         // IO_SLEEP_TIME
constexpr int kMemoizablePercent = 90;  // MEMOIZABLE_PERCENTAGE
constexpr int kCpuPercent = 50;         // CPU_PROBABILITY (0.5), in percent

constexpr int tree_tasks(int levels) {
  int tasks = 0;
  for (int level = 1, width = kBranches; level <= levels; ++level, width *= kBranches)
    tasks += width;
  return tasks;
}
constexpr int kTreeTasks = tree_tasks(kLevels);
static_assert(kTreeTasks == 55'986);

/// Draws from 1 to 100: Knuth's MMIX linear congruential generator, the same
/// three operations as the twins' Percentages, so both draw the same numbers.
class Percentages {
 public:
  int draw() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;  // mod 2^64
    return static_cast<int>((state_ >> 33) % 100) + 1;
  }

 private:
  std::uint64_t state_ = 0;  // RANDOM_SEED
};

struct AsyncTree;
/// A variant's leaf work (pyperformance's workload_func of each subclass).
using WorkloadFunc = Coro<int> (*)(AsyncTree* tree);

/// One tree's state: a fresh one per batch, so every tree is the same.
struct AsyncTree {
  EventLoop* loop;
  WorkloadFunc workload_func;
  bool eager;
  std::array<bool, 101> cache{};  // cache[key]: the key was seen (the twins' dict)
  Percentages percentages{};
};

// ---- the leaves -------------------------------------------------------------

Coro<void> mock_io_call() { co_await looplab::sleep(kIoSleep); }

Coro<int> none_workload(AsyncTree* /*tree*/) { co_return 0; }

Coro<int> io_workload(AsyncTree* /*tree*/) {
  co_await mock_io_call();
  co_return 0;
}

Coro<int> memoization_workload(AsyncTree* tree) {
  int data = tree->percentages.draw();
  if (data <= kMemoizablePercent) {
    if (tree->cache[data]) co_return data;  // memoized: done without waiting
    tree->cache[data] = true;
  }
  co_await mock_io_call();
  co_return data;
}

Coro<int> cpu_io_mixed_workload(AsyncTree* tree) {
  if (tree->percentages.draw() <= kCpuPercent) co_return 0;  // the CPU part, left out
  int data = co_await memoization_workload(tree);
  co_return data;
}

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

Coro<int> run(AsyncTree* tree) {
  if (tree->eager) tree->loop->set_task_factory(looplab::eager_task_factory);
  int result = co_await recurse_with_gather(tree, kLevels);
  co_return result;
}

// One tree per batch, on the loop's default selector (the label says which).
void async_tree_on(benchmark::State& state, WorkloadFunc workload_func, bool eager) {
  EventLoop loop;
  state.SetLabel(std::string(loop.selector().name()) + ": one tree of 55,986 tasks per batch");
  long sum = 0;
  while (state.KeepRunningBatch(kTreeTasks)) {
    AsyncTree tree{&loop, workload_func, eager};
    sum += loop.run_until_complete(run(&tree));
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
