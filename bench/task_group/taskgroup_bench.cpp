// Stage 08 workloads, taskgroup_fanout and taskgroup_fail_fast: a TaskGroup
// whose children all return, and one whose first failure cancels the rest.
// Each reports nanoseconds per child task (KeepRunningBatch counts one
// iteration per child) for the same workload as its twin in
// comparisons/asyncio/task_group/.
//
// The group's block is a named function, body(group, args...), which
// task_group() runs between enter() and exit() (asyncio's __aenter__ and
// __aexit__): `co_await task_group(body, args...)` is
// `async with asyncio.TaskGroup() as group: <body>`.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/exception_group.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "looplab/task_group.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::create_task;
using looplab::EventLoop;
using looplab::Task;
using looplab::TaskGroup;

constexpr int kChildren = 100;  // children per group

// The loop's default selector, as programs get it; the label says which,
// and how often a turn comes. No turn polls: none may wait, and the program
// watches no descriptor (stage 07's wait_for_events()).
void set_label(benchmark::State& state, const EventLoop& loop, const std::string& turns) {
  state.SetLabel(std::string(loop.selector().name()) + ": " + looplab::bench::kNothingWatched +
                 "; " + turns);
}

// ---- taskgroup_fanout -------------------------------------------------------
//
// One task runs 1,000 groups, one after the other; each group's block creates
// 100 children that return at once (no sleep(0): the group's own cost, as
// gather_fanout measures gather()'s), and the block waits for them; then the
// parent adds up their results. One operation = one child task: created with
// group->create_task(), run until it returns, its end seen by the group (its
// done callback, asyncio's _on_task_done). 100,000 operations a batch.
//
// A group takes three turns: the children's steps; the group's done
// callbacks, the last of which wakes exit(); the parent's wakeup, which ends
// the block and starts the next group: 3 turns per 100 ops.
constexpr int kFanoutGroups = 1'000;
constexpr int kFanoutBatch = kChildren * kFanoutGroups;  // 100,000 children

Coro<int> plus_one(int x) { co_return x + 1; }

// The block of `async with asyncio.TaskGroup() as group:`: a task per child.
Coro<void> create_children(TaskGroup* group, std::vector<Task<int>>* children) {
  for (int i = 0; i < kChildren; ++i) children->push_back(group->create_task(plus_one(i)));
  co_return;
}

Coro<long> group_rounds(int groups) {
  long sum = 0;
  std::vector<Task<int>> children;
  children.reserve(kChildren);
  for (int round = 0; round < groups; ++round) {
    children.clear();
    co_await looplab::task_group(create_children, &children);  // every child is done
    for (Task<int>& child : children) sum += child.result();
  }
  co_return sum;
}

void taskgroup_fanout(benchmark::State& state) {
  EventLoop loop;
  set_label(state, loop, "3 turns per 100 ops");
  long sum = 0;
  while (state.KeepRunningBatch(kFanoutBatch)) {
    Task<long> parent = create_task(loop, group_rounds(kFanoutGroups));
    sum += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(sum);
}

// ---- taskgroup_fail_fast ----------------------------------------------------
//
// One task runs 200 groups, one after the other; each group's block creates
// 100 siblings that sleep for an hour, then one child that raises ValueError
// at its first step. The failure cancels the siblings (and the parent, whose
// exit() takes that back), and the block raises an ExceptionGroup holding
// the ValueError, which the parent catches. One operation = one sibling:
// created, started (its sleep arms a timer), cancelled (its timer with it),
// woken with CancelledError, its end seen by the group. 20,000 operations
// a batch.
//
// A group takes five turns: the children's first steps (the siblings arm
// their timers, the failing child ends); the group's done callback for the
// failure, which cancels the siblings and the parent; the siblings' wakeups,
// which end them cancelled, and the parent's, which waits again; the group's
// done callbacks, the last of which wakes exit(); the parent's wakeup, which
// raises the ExceptionGroup: 5 turns per 100 ops.
constexpr int kFailFastGroups = 200;
constexpr int kFailFastBatch = kChildren * kFailFastGroups;  // 20,000 siblings

Coro<void> sleep_an_hour() { co_await looplab::sleep(1h); }

Coro<void> fail_at_once() {
  throw looplab::ValueError("fail fast");
  co_return;
}

// The block: the siblings, then the child that fails.
Coro<void> create_siblings_and_a_failure(TaskGroup* group) {
  for (int i = 0; i < kChildren; ++i) group->create_task(sleep_an_hour());
  group->create_task(fail_at_once());
  co_return;
}

Coro<long> fail_fast_rounds(int groups) {
  long errors = 0;
  for (int round = 0; round < groups; ++round) {
    try {
      co_await looplab::task_group(create_siblings_and_a_failure);
    } catch (const looplab::ExceptionGroup& group) {
      errors += static_cast<long>(group.exceptions().size());  // the one ValueError
    }
  }
  co_return errors;
}

void taskgroup_fail_fast(benchmark::State& state) {
  EventLoop loop;
  set_label(state, loop, "5 turns per 100 ops");
  long errors = 0;
  while (state.KeepRunningBatch(kFailFastBatch)) {
    Task<long> parent = create_task(loop, fail_fast_rounds(kFailFastGroups));
    errors += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(errors);
}

BENCHMARK(taskgroup_fanout);
BENCHMARK(taskgroup_fail_fast);

}  // namespace
