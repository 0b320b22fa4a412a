// Stage 07 workloads, fanout_cached and fanout_cached_eager: a fan-out of
// lookups where 90% hit a cache, with tasks started lazily and eagerly. Each
// reports nanoseconds per child task (KeepRunningBatch counts one iteration
// per child) for the same workload as its twin in
// comparisons/asyncio/eager_tasks/.
//
// One operation = one child task: created with create_task(), run until it
// returns, its result collected by gather(). One task creates 100 children,
// gathers them and awaits the gather, 1,000 times: 100,000 operations a
// batch. Child `key` looks its key up in a cache that holds 90 keys of every
// 100 (key % 10 != 9): a hit returns at once, without suspending; a miss
// awaits sleep(0), the "server" answering a turn later.
//
// Lazy (the loop's default): every child's first step is a callback of the
// next turn, hit or miss; a round takes four turns. Eager (the loop's task
// factory is eager_task_factory): a child's first step runs inside
// create_task(), so a hit is done before create_task() returns and never
// reaches the loop, and gather() takes it into account at once; only the 10
// misses go on as tasks, and a round takes three turns. No turn polls the
// selector: none may wait, and the program watches no descriptor (stage 07's
// wait_for_events()). CPython's turns each poll its self-pipe, an
// epoll_wait(0) system call: 3 or 4 per 100 operations.
//
// The coroutines take pointers and ints, never references, and nothing but
// a named local or a plain call is ever the operand of co_await (g++ 12
// miscompiles lambdas, aggregates and braced lists there: pitfall P1).
#include <benchmark/benchmark.h>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::create_task;
using looplab::EventLoop;
using looplab::Future;
using looplab::Task;

constexpr int kFanout = 100;
constexpr int kRounds = 1'000;
constexpr int kBatch = kFanout * kRounds;  // 100,000 children

// The cache: key -> 2 * key for 90 keys of every 100, as the twin's dict.
struct Cache {
  std::array<std::optional<int>, kFanout> values;

  Cache() {
    for (int key = 0; key < kFanout; ++key) {
      if (key % 10 != 9) values[key] = 2 * key;
    }
  }
};

Coro<int> lookup(const Cache* cache, int key) {
  if (std::optional<int> hit = cache->values[key]) co_return *hit;  // done without waiting
  co_await looplab::sleep(0s);  // a miss: the server answers a turn later
  co_return 2 * key;
}

Coro<long> gather_rounds(EventLoop* loop, const Cache* cache, int rounds) {
  long sum = 0;
  std::vector<Future<int>> children;
  for (int round = 0; round < rounds; ++round) {
    children.clear();
    children.reserve(kFanout);
    for (int key = 0; key < kFanout; ++key)
      children.push_back(create_task(*loop, lookup(cache, key)));
    Future<std::vector<int>> all = looplab::gather(*loop, std::move(children));
    std::vector<int> values = co_await all;
    for (int value : values) sum += value;
  }
  co_return sum;
}

// The loop's default selector, as programs get it; the label says which,
// and how often a turn comes.
void fanout_cached_on(benchmark::State& state, bool eager) {
  EventLoop loop;
  if (eager) loop.set_task_factory(looplab::eager_task_factory);
  std::string turns = eager ? "3 turns per 100 ops" : "4 turns per 100 ops";
  state.SetLabel(std::string(loop.selector().name()) + ": " + looplab::bench::kNothingWatched +
                 "; " + turns);
  Cache cache;
  long sum = 0;
  while (state.KeepRunningBatch(kBatch)) {
    // Made while the loop is not running: the parent itself starts lazily.
    Task<long> parent = create_task(loop, gather_rounds(&loop, &cache, kRounds));
    sum += loop.run_until_complete(parent);
  }
  benchmark::DoNotOptimize(sum);
}

void fanout_cached(benchmark::State& state) { fanout_cached_on(state, false); }
void fanout_cached_eager(benchmark::State& state) { fanout_cached_on(state, true); }

BENCHMARK(fanout_cached);
BENCHMARK(fanout_cached_eager);

}  // namespace
