// async_tree.hpp: what every async_tree benchmark shares, pyperformance's
// bm_async_tree without its recursion: the constants, the draws and the
// leaves' work. The same trees as the twins' comparisons/asyncio/eager_tasks/
// _async_tree.py (which says what both change from pyperformance, and why).
//
// A tree is 6 levels deep with 6 branches per node; at level 0, a leaf does
// its variant's work:
//
//   none          nothing
//   io            sleep 50 ms, real time (a future and a timer)
//   memoization   draw a key from 1 to 100; a key up to 90 seen before
//                 returns at once (about 90% of the leaves), the others
//                 sleep 50 ms
//   cpu_io_mixed  draw: up to 50, pyperformance computes math.factorial(500),
//                 which is left out on both sides (the leaf returns at once:
//                 C-speed bignum arithmetic on both sides, ~8 us, it would
//                 measure multiplication, not the loop); else as memoization
//
// How a node waits for its 6 children is each benchmark's own:
// gather() in eager_tasks/async_tree_bench.cpp (stage 07 on), a TaskGroup in
// task_group/async_tree_tg_bench.cpp (stage 08 on). Either way each child is
// a task: 6 + 36 + ... + 6^6 = 55,986 of them a tree (the root is the
// batch's own task, not counted).
//
// The draws: both sides use the same 64-bit linear congruential generator
// (Percentages), so the same leaves hit the cache and sleep on both. A tree
// whose children start in the same order draws the same numbers in the same
// leaves, however its nodes wait.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"

namespace looplab::bench::async_tree {

using namespace std::chrono_literals;

// pyperformance's constants.
constexpr int kLevels = 6;              // NUM_RECURSE_LEVELS
constexpr int kBranches = 6;            // NUM_RECURSE_BRANCHES
constexpr auto kIoSleep = 50ms;         // IO_SLEEP_TIME
constexpr int kMemoizablePercent = 90;  // MEMOIZABLE_PERCENTAGE
constexpr int kCpuPercent = 50;         // CPU_PROBABILITY (0.5), in percent

constexpr int kQuickLevels = 4;  // LOOPLAB_BENCH_QUICK: the twins' --quick tree

constexpr int tree_tasks(int levels) {
  int tasks = 0;
  for (int level = 1, width = kBranches; level <= levels; ++level, width *= kBranches)
    tasks += width;
  return tasks;
}
constexpr int kTreeTasks = tree_tasks(kLevels);
static_assert(kTreeTasks == 55'986);
static_assert(tree_tasks(kQuickLevels) == 1'554);

/// How deep a tree is: 6 levels, or 4 when LOOPLAB_BENCH_QUICK is set, as
/// the report's quick (smoke) mode does, since the twins' --quick builds a
/// 4-level tree. A tree's size is part of its workload: 1,554 tasks stay in
/// the cache where 55,986 do not, so both sides must build the same one.
inline int tree_levels() {
  const char* quick = std::getenv("LOOPLAB_BENCH_QUICK");
  return quick != nullptr && *quick != '\0' ? kQuickLevels : kLevels;
}

/// The label of a tree benchmark: the selector and the tree's size.
inline std::string tree_label(EventLoop& loop, int levels) {
  std::string tasks = std::to_string(tree_tasks(levels));
  for (auto at = static_cast<std::ptrdiff_t>(tasks.size()) - 3; at > 0; at -= 3)
    tasks.insert(static_cast<std::size_t>(at), ",");  // 55,986
  return std::string(loop.selector().name()) + ": one tree of " + tasks + " tasks per batch";
}

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

inline Coro<void> mock_io_call() { co_await looplab::sleep(kIoSleep); }

inline Coro<int> none_workload(AsyncTree* /*tree*/) { co_return 0; }

inline Coro<int> io_workload(AsyncTree* /*tree*/) {
  co_await mock_io_call();
  co_return 0;
}

inline Coro<int> memoization_workload(AsyncTree* tree) {
  int data = tree->percentages.draw();
  if (data <= kMemoizablePercent) {
    if (tree->cache[data]) co_return data;  // memoized: done without waiting
    tree->cache[data] = true;
  }
  co_await mock_io_call();
  co_return data;
}

inline Coro<int> cpu_io_mixed_workload(AsyncTree* tree) {
  if (tree->percentages.draw() <= kCpuPercent) co_return 0;  // the CPU part, left out
  int data = co_await memoization_workload(tree);
  co_return data;
}

}  // namespace looplab::bench::async_tree
