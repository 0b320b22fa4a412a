// timer_wheel_churn: the wheel against the loop's heap on the same timers.
// 100,000 timers with deadlines spread over 10 s, every second one cancelled,
// then time advanced in 1 ms steps until all are gone. One op = one timer
// pushed (half cancelled, half returned as due). Both sides allocate the same
// TimerHandleStates; what differs is the structure that holds them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "looplab/lab/timer_wheel.hpp"
#include "looplab/timer_heap.hpp"

namespace {

using namespace std::chrono_literals;
using looplab::Clock;
using looplab::Ref;
using looplab::TimerHandleState;

constexpr int kTimers = 100'000;
constexpr Clock::duration kSpan = 10s;
constexpr Clock::duration kStep = 1ms;
const Clock::time_point kStart{};

std::vector<Clock::duration> random_deadlines() {
  std::mt19937 random(42);
  std::uniform_int_distribution<Clock::duration::rep> offset(0, kSpan.count());
  std::vector<Clock::duration> deadlines(kTimers);
  for (auto& deadline : deadlines) deadline = Clock::duration(offset(random));
  return deadlines;
}

std::vector<Ref<TimerHandleState>> make_timers(const std::vector<Clock::duration>& deadlines) {
  std::vector<Ref<TimerHandleState>> timers;
  timers.reserve(deadlines.size());
  for (Clock::duration deadline : deadlines)
    timers.emplace_back(new TimerHandleState(kStart + deadline, [] {}, looplab::Context(), {}));
  return timers;
}

void cancel_every_second(std::vector<Ref<TimerHandleState>>& timers) {
  for (std::size_t i = 0; i < timers.size(); i += 2) timers[i]->cancel();
}

void timer_wheel_churn_heap(benchmark::State& state) {
  const auto deadlines = random_deadlines();
  long ran = 0;
  while (state.KeepRunningBatch(kTimers)) {
    auto timers = make_timers(deadlines);
    looplab::TimerHeap heap;
    for (auto& timer : timers) heap.push(timer);
    cancel_every_second(timers);
    for (Clock::time_point now = kStart; !heap.empty(); now += kStep) {
      while (!heap.empty() && heap.top().when() <= now) {
        Ref<TimerHandleState> timer = heap.pop();
        if (!timer->cancelled()) ++ran;
      }
    }
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(timer_wheel_churn_heap);

void timer_wheel_churn_wheel(benchmark::State& state) {
  const auto deadlines = random_deadlines();
  std::vector<Ref<TimerHandleState>> due;
  long ran = 0;
  while (state.KeepRunningBatch(kTimers)) {
    auto timers = make_timers(deadlines);
    looplab::lab::TimerWheel wheel(kStart, kStep, 1024);
    for (auto& timer : timers) wheel.push(timer);
    cancel_every_second(timers);
    for (Clock::time_point now = kStart; !wheel.empty(); now += kStep) {
      wheel.advance(now, due);
      ran += static_cast<long>(due.size());
      due.clear();
    }
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(timer_wheel_churn_wheel);

}  // namespace
