// Stage 02 workloads: timers. Same names and definitions as the twins in
// comparisons/asyncio/timers/; one iteration = one operation (KeepRunningBatch).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "bench_support.hpp"
#include "looplab/event_loop.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::Clock;
using looplab::EventLoop;
using looplab::TimerHandle;

using looplab::bench::note_what_is_skipped;
using looplab::bench::run_one_turn;

// Distinct past deadlines (offsets in microseconds before now), shuffled with a fixed seed.
std::vector<Clock::duration> shuffled_offsets(int count) {
  std::vector<Clock::duration> offsets(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    offsets[static_cast<std::size_t>(i)] = std::chrono::microseconds(i + 1);
  std::shuffle(offsets.begin(), offsets.end(), std::mt19937(42));
  return offsets;
}

// timers_due: 100,000 timers whose deadlines are already due, scheduled in
// random order, then one turn runs them all. One op = one timer scheduled and run.
void timers_due(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kTimers = 100'000;
  const auto offsets = shuffled_offsets(kTimers);
  EventLoop loop;
  long ran = 0;
  while (state.KeepRunningBatch(kTimers)) {
    Clock::time_point now = loop.time();
    for (Clock::duration offset : offsets) loop.call_at(now - offset, [&ran] { ++ran; });
    run_one_turn(loop);
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(timers_due);

// timers_cancel_half: the same, with every second timer cancelled before the
// turn. One op = one timer scheduled (half cancelled, half run).
void timers_cancel_half(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kTimers = 100'000;
  const auto offsets = shuffled_offsets(kTimers);
  EventLoop loop;
  std::vector<TimerHandle> timers;
  timers.reserve(kTimers);
  long ran = 0;
  while (state.KeepRunningBatch(kTimers)) {
    Clock::time_point now = loop.time();
    for (Clock::duration offset : offsets)
      timers.push_back(loop.call_at(now - offset, [&ran] { ++ran; }));
    for (std::size_t i = 0; i < timers.size(); i += 2) timers[i].cancel();
    run_one_turn(loop);
    timers.clear();
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(timers_cancel_half);

// timer_churn: the timeout that almost never fires. With 1,000 long-lived
// timers in the heap, each op schedules call_later(60 s) and cancels it at
// once; every 1,000 ops one turn runs, so the heap hygiene runs as in a
// server. One op = one timer scheduled and cancelled.
void timer_churn(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kOps = 100'000;
  constexpr int kOpsPerTurn = 1'000;
  EventLoop loop;
  std::vector<TimerHandle> long_lived;
  long_lived.reserve(1'000);
  for (int i = 0; i < 1'000; ++i)
    long_lived.push_back(loop.call_later(3600s + std::chrono::seconds(i), [] {}));
  while (state.KeepRunningBatch(kOps)) {
    for (int i = 0; i < kOps; ++i) {
      loop.call_later(60s, [] {}).cancel();
      if ((i + 1) % kOpsPerTurn == 0) run_one_turn(loop);
    }
  }
}
BENCHMARK(timer_churn);

// timer_churn_eager: the same operations on a heap that removes a cancelled
// timer at once (libuv's discipline: each entry knows its index, removal is
// O(log n)). No asyncio twin: it exists to show what lazy cancellation buys.
class EagerTimerHeap {
 public:
  struct Timer {
    Clock::time_point when;
    std::size_t index = 0;
  };

  Timer* push(Clock::time_point when) {
    auto timer = std::make_unique<Timer>(Timer{when, heap_.size()});
    Timer* raw = timer.get();
    heap_.push_back(std::move(timer));
    up(heap_.size() - 1);
    return raw;
  }

  void remove(Timer* timer) {
    std::size_t i = timer->index;
    swap(i, heap_.size() - 1);
    heap_.pop_back();
    if (i < heap_.size()) {
      up(i);
      down(i);
    }
  }

  std::size_t size() const { return heap_.size(); }

 private:
  bool less(std::size_t a, std::size_t b) const { return heap_[a]->when < heap_[b]->when; }
  void swap(std::size_t a, std::size_t b) {
    std::swap(heap_[a], heap_[b]);
    heap_[a]->index = a;
    heap_[b]->index = b;
  }
  void up(std::size_t i) {
    while (i > 0 && less(i, (i - 1) / 2)) {
      swap(i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  }
  void down(std::size_t i) {
    for (;;) {
      std::size_t smallest = i;
      for (std::size_t child : {2 * i + 1, 2 * i + 2}) {
        if (child < heap_.size() && less(child, smallest)) smallest = child;
      }
      if (smallest == i) return;
      swap(i, smallest);
      i = smallest;
    }
  }

  std::vector<std::unique_ptr<Timer>> heap_;
};

void timer_churn_eager(benchmark::State& state) {
  state.SetLabel("data structure only: an indexed heap with eager removal, no loop");
  constexpr int kOps = 100'000;
  EagerTimerHeap heap;
  Clock::time_point now = std::chrono::steady_clock::now();
  for (int i = 0; i < 1'000; ++i) heap.push(now + 3600s + std::chrono::seconds(i));
  while (state.KeepRunningBatch(kOps)) {
    for (int i = 0; i < kOps; ++i) heap.remove(heap.push(now + 60s));
  }
  benchmark::DoNotOptimize(heap.size());
}
BENCHMARK(timer_churn_eager);

}  // namespace
