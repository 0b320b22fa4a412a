// Stage 06 workloads: tasks on C++20 coroutines. Each reports nanoseconds per
// operation (KeepRunningBatch counts one iteration per operation) for the
// same workload as its twin in comparisons/asyncio/tasks/, so the two can be
// set side by side.
//
// The selector poll. Every turn of the loop asks its selector what is ready
// before it runs the callbacks, as asyncio's _run_once does (with timeout 0
// when callbacks are waiting); on epoll (the default selector) that is an
// epoll_wait(0) system call, and io_uring only peeks at its completion queue
// in user space. Each workload runs three times: `name` on the default
// selector, as programs get it (which from stage 07 skips the poll of a turn
// that must not wait while no descriptor is watched), and `name/epoll` and
// `name/io_uring`, which watch one idle descriptor, as asyncio's loop watches
// its self-pipe, so that every turn polls. The label says which selector ran
// and how many turns an operation takes, so the poll's share can be read off.
//
// The coroutines take pointers and ints, never references, and nothing but a
// named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "looplab/coro.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::CancelledError;
using looplab::Coro;
using looplab::create_task;
using looplab::EventLoop;
using looplab::Future;
using looplab::SelectorKind;
using looplab::Task;

// ---- the workloads ----------------------------------------------------------

// A trivial task body: returns at its first step, without waiting.
Coro<int> plus_one(int x) { co_return x + 1; }

// task_sleep0: 10,000 tasks, each awaiting sleep(0) ten times. One operation
// = one task step (one TaskBase::step(), asyncio's Task.__step): a task
// takes 11, its first (up to the first sleep(0)) and one after each of its
// ten yields, the last of which returns. So a batch is 110,000 operations.
// The batch time includes creating the 10,000 tasks and finishing them. A
// turn runs all 10,000 tasks' steps, so the 11 polls a batch are negligible.
constexpr int kSleepTasks = 10'000;
constexpr int kSleepsPerTask = 10;
constexpr int kStepsPerTask = kSleepsPerTask + 1;
constexpr int kSleepBatch = kSleepTasks * kStepsPerTask;  // 110,000 steps

Coro<void> yield_ten_times(EventLoop* loop, int* running) {
  for (int i = 0; i < kSleepsPerTask; ++i) co_await looplab::sleep(0s);  // one bare yield
  if (--*running == 0) loop->stop();  // the last task to finish ends the batch
}

void task_sleep0_on(benchmark::State& state, EventLoop& loop) {
  int running = 0;
  while (state.KeepRunningBatch(kSleepBatch)) {
    running = kSleepTasks;
    for (int i = 0; i < kSleepTasks; ++i) create_task(loop, yield_ten_times(&loop, &running));
    loop.run_forever();
  }
}

// task_create_await: one task creates a trivial task and awaits its result,
// 100,000 times. One operation = one create + await: two turns (the child's
// step, which finishes it; then the parent's wakeup, which creates the next).
constexpr int kCreateAwaitOps = 100'000;

Coro<long> create_and_await(EventLoop* loop, int times) {
  long sum = 0;
  for (int i = 0; i < times; ++i) {
    Task<int> child = create_task(*loop, plus_one(i));
    sum += co_await child;
  }
  co_return sum;
}

void task_create_await_on(benchmark::State& state, EventLoop& loop) {
  long sum = 0;
  while (state.KeepRunningBatch(kCreateAwaitOps)) {
    Task<long> parent = create_task(loop, create_and_await(&loop, kCreateAwaitOps));
    sum += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(sum);
}

// gather_fanout: one task creates 100 trivial tasks, gathers them and awaits
// the gather, 1,000 times. One operation = one child task (created, stepped
// once, its result collected by gather). Three turns per 100 operations (the
// children's steps; gather's done callbacks; the parent's wakeup).
constexpr int kFanout = 100;
constexpr int kFanoutRounds = 1'000;
constexpr int kFanoutBatch = kFanout * kFanoutRounds;  // 100,000 children

Coro<long> gather_rounds(EventLoop* loop, int rounds) {
  long sum = 0;
  std::vector<Future<int>> children;
  for (int round = 0; round < rounds; ++round) {
    children.clear();
    children.reserve(kFanout);
    for (int i = 0; i < kFanout; ++i) children.push_back(create_task(*loop, plus_one(i)));
    Future<std::vector<int>> all = looplab::gather(*loop, std::move(children));
    std::vector<int> values = co_await all;
    for (int value : values) sum += value;
  }
  co_return sum;
}

void gather_fanout_on(benchmark::State& state, EventLoop& loop) {
  long sum = 0;
  while (state.KeepRunningBatch(kFanoutBatch)) {
    Task<long> parent = create_task(loop, gather_rounds(&loop, kFanoutRounds));
    sum += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(sum);
}

// task_cancel: 20,000 times, create a task that sleeps for an hour, let it
// start (sleep(0): one turn, in which its first step arms its timer), cancel
// it, and await it, catching the CancelledError. One operation = one such
// cycle: three turns (the sleeper's first step; its wakeup, which throws
// CancelledError into it; the parent's wakeup, which rethrows it), and the
// exceptions that carry the cancellation from the sleeper to the parent.
constexpr int kCancelOps = 20'000;

Coro<void> sleep_an_hour() { co_await looplab::sleep(1h); }

Coro<long> cancel_cycles(EventLoop* loop, int times) {
  long cancelled = 0;
  for (int i = 0; i < times; ++i) {
    Task<void> sleeper = create_task(*loop, sleep_an_hour());
    co_await looplab::sleep(0s);  // the sleeper starts, and waits for its timer
    sleeper.cancel();             // cancels the timer's future: the sleeper wakes up
    try {
      co_await sleeper;
    } catch (const CancelledError&) {
      ++cancelled;
    }
  }
  co_return cancelled;
}

void task_cancel_on(benchmark::State& state, EventLoop& loop) {
  long cancelled = 0;
  while (state.KeepRunningBatch(kCancelOps)) {
    Task<long> parent = create_task(loop, cancel_cycles(&loop, kCancelOps));
    cancelled += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(cancelled);
}

// ---- one registration per workload and selector ------------------------------

struct Workload {
  const char* name;
  void (*run)(benchmark::State&, EventLoop&);
  const char* turns;  // for the label: how often a turn (and its poll) comes
};

const Workload kWorkloads[] = {
    {"task_sleep0", task_sleep0_on, "11 turns per 110,000 ops"},
    {"task_create_await", task_create_await_on, "2 turns per op"},
    {"gather_fanout", gather_fanout_on, "3 turns per 100 ops"},
    {"task_cancel", task_cancel_on, "3 turns per op"},
};

// The label: which selector ran, what its poll costs, how often it comes.
void set_label(benchmark::State& state, const EventLoop& loop, const Workload& workload,
               bool polls) {
  std::string name = loop.selector().name();
  std::string poll = "polls it each turn";
  if (name == "epoll") poll = "epoll_wait(0) each turn, a system call";
  if (name == "io_uring") poll = "peeks its completion queue each turn, no system call";
  if (!polls) poll = looplab::bench::kNothingWatched;
  state.SetLabel(name + ": " + poll + "; " + workload.turns);
}

// `name`: the loop as programs get it, on the default selector.
void on_default_selector(benchmark::State& state, const Workload& workload) {
  EventLoop loop;
  set_label(state, loop, workload, /*polls=*/LOOPLAB_STAGE < 7);
  workload.run(state, loop);
}

// `name/<backend>`: the same on one selector. A backend the kernel refuses
// (io_uring in some containers) falls back to epoll: reported as an error,
// which the report shows as "not measured here", not as io_uring's figure.
void on_selector(benchmark::State& state, const Workload& workload, SelectorKind kind) {
  looplab::SteadyClock clock;
  EventLoop loop(clock, looplab::make_selector(kind));
  if (loop.selector().name() != looplab::to_string(kind)) {
    std::string why = std::string(looplab::to_string(kind)) +
                      " unavailable: the loop fell back to " + loop.selector().name();
    state.SkipWithError(why.c_str());
    return;
  }
  looplab::bench::IdleReader watched(loop);
  set_label(state, loop, workload, /*polls=*/true);
  workload.run(state, loop);
}

[[maybe_unused]] const bool registered = [] {
  std::vector<SelectorKind> compiled = looplab::compiled_selectors();
  for (const Workload& workload : kWorkloads) {
    benchmark::RegisterBenchmark(workload.name, on_default_selector, workload);
    for (SelectorKind kind : {SelectorKind::kEpoll, SelectorKind::kIoUring}) {
      if (std::find(compiled.begin(), compiled.end(), kind) == compiled.end()) continue;
      std::string name = std::string(workload.name) + "/" + std::string(looplab::to_string(kind));
      benchmark::RegisterBenchmark(name.c_str(), on_selector, workload, kind);
    }
  }
  return true;
}();

}  // namespace
