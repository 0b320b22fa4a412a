// Stage 10 workloads: a call handed to a worker thread and its result back on
// the loop. Each reports ns per operation for the same workload as its twin in
// comparisons/asyncio/executor/ (and libuv's in comparisons/native/
// libuv_executor.c, uv_queue_work):
//
//   executor_roundtrip    a coroutine awaits run_in_executor(nullptr, fn, i),
//                         then submits the next; one op = one round trip: the
//                         submit, the worker's call, the post back, the resume
//   to_thread_roundtrip   the same through to_thread(fn, i): a coroutine and a
//                         copy of the Context more per call
//
// and each again _pinned: every thread on one CPU, so that a round trip costs
// context switches instead of cross-CPU wake-ups. The label says how many
// threads the default executor started: sequential round trips need one.
#include <benchmark/benchmark.h>
#include <sched.h>

#include <cstddef>
#include <string>
#include <utility>

#include "looplab/event_loop.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"

namespace {

using looplab::Coro;
using looplab::EventLoop;

constexpr int kRoundTrips = 10'000;

int increment(int n) { return n + 1; }

Coro<long> executor_roundtrips(EventLoop* loop, int count) {
  long total = 0;
  for (int i = 0; i < count; ++i) {
    looplab::Future<int> call = loop->run_in_executor(nullptr, increment, i);
    total += co_await call;
  }
  co_return total;
}

Coro<long> to_thread_roundtrips(int count) {
  long total = 0;
  for (int i = 0; i < count; ++i) {
    Coro<int> call = looplab::to_thread(increment, i);
    total += co_await std::move(call);
  }
  co_return total;
}

// Every thread of this process on CPU 0 while it lives: the loop's thread
// before the loop makes its default executor, whose threads inherit it.
class PinnedToOneCpu {
 public:
  PinnedToOneCpu() {
    sched_getaffinity(0, sizeof saved_, &saved_);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
  }
  PinnedToOneCpu(const PinnedToOneCpu&) = delete;
  PinnedToOneCpu& operator=(const PinnedToOneCpu&) = delete;
  ~PinnedToOneCpu() { sched_setaffinity(0, sizeof saved_, &saved_); }

 private:
  cpu_set_t saved_{};
};

std::string threads_label(std::size_t threads) {
  return std::to_string(threads) + (threads == 1 ? " executor thread" : " executor threads");
}

enum class Door { kRunInExecutor, kToThread };

void roundtrip(benchmark::State& state, Door door) {
  EventLoop loop;
  long total = 0;
  while (state.KeepRunningBatch(kRoundTrips)) {
    if (door == Door::kRunInExecutor) {
      total += loop.run_until_complete(executor_roundtrips(&loop, kRoundTrips));
    } else {
      total += loop.run_until_complete(to_thread_roundtrips(kRoundTrips));
    }
  }
  benchmark::DoNotOptimize(total);
  const looplab::concurrent::ThreadPoolExecutor* executor = loop.default_executor_if_any();
  std::size_t threads = executor != nullptr ? executor->thread_count() : 0;
  loop.run_until_complete(loop.shutdown_default_executor());
  loop.close();
  state.SetLabel(threads_label(threads));
}

void roundtrip_pinned(benchmark::State& state, Door door) {
  PinnedToOneCpu pinned;
  roundtrip(state, door);
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("executor_roundtrip", roundtrip, Door::kRunInExecutor)
      ->UseRealTime();
  benchmark::RegisterBenchmark("executor_roundtrip_pinned", roundtrip_pinned, Door::kRunInExecutor)
      ->UseRealTime();
  benchmark::RegisterBenchmark("to_thread_roundtrip", roundtrip, Door::kToThread)->UseRealTime();
  benchmark::RegisterBenchmark("to_thread_roundtrip_pinned", roundtrip_pinned, Door::kToThread)
      ->UseRealTime();
  return true;
}();

}  // namespace
