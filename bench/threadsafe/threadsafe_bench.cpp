// Stage 09 workloads: handing the loop a callback from another thread. Each
// reports ns per operation for the same workload as its twin in
// comparisons/asyncio/threadsafe/.
//
//   threadsafe_flood      4 threads post 100,000 callbacks each, as fast as
//                         they can; one op = one callback posted and run
//   threadsafe_pingpong   one thread posts a callback and waits until the
//                         loop has run it, then posts the next; one op = one
//                         round trip; _pinned: both threads on one CPU
//
// and each again per self-pipe and wake-up rule (/eventfd/once_per_drain...),
// the comparison chapter 9 makes. The label counts the self-pipe writes.
#include <benchmark/benchmark.h>
#include <sched.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"

namespace {

using looplab::EventLoop;
using looplab::SelfPipe;
using looplab::ThreadsafeQueue;

constexpr long kPosters = 4;
constexpr long kPerPoster = 100'000;
constexpr int kRoundTrips = 20'000;

struct Config {
  SelfPipe::Kind kind;
  ThreadsafeQueue::WakeRule rule;
};

std::string name_of(const Config& config) {
  return std::string(looplab::name_of(config.kind)) +
         (config.rule == ThreadsafeQueue::WakeRule::kEveryPost ? "/every_post" : "/once_per_drain");
}

void label(benchmark::State& state, const EventLoop& loop, std::uint64_t writes, long ops) {
  const ThreadsafeQueue& queue = loop.threadsafe_queue();
  Config config{queue.self_pipe().kind(), queue.wake_rule()};
  // Tenths: once per drain on a busy loop writes far less than once per 1,000.
  std::uint64_t tenths = ops > 0 ? writes * 10'000 / static_cast<std::uint64_t>(ops) : 0;
  state.SetLabel(name_of(config) + ": " + std::to_string(tenths / 10) + "." +
                 std::to_string(tenths % 10) + " self-pipe writes per 1,000 posts");
}

// ---- threadsafe_flood -------------------------------------------------------

void flood(benchmark::State& state, Config config) {
  looplab::SteadyClock clock;
  EventLoop loop(clock, looplab::make_default_selector(), config.kind, config.rule);
  std::uint64_t writes_before = loop.threadsafe_queue().self_pipe().writes();
  long ops = 0;
  while (state.KeepRunningBatch(kPosters * kPerPoster)) {
    long remaining = kPosters * kPerPoster;
    auto tick = [&loop, &remaining] {
      if (--remaining == 0) loop.stop();
    };
    std::vector<std::thread> posters;
    loop.call_soon([&] {
      for (long p = 0; p < kPosters; ++p) {
        posters.emplace_back([&loop, tick] {
          for (long i = 0; i < kPerPoster; ++i) loop.call_soon_threadsafe(tick);
        });
      }
    });
    loop.run_forever();
    for (std::thread& poster : posters) poster.join();
    ops += kPosters * kPerPoster;
  }
  label(state, loop, loop.threadsafe_queue().self_pipe().writes() - writes_before, ops);
}

// ---- threadsafe_pingpong ----------------------------------------------------

// Every thread of this process on CPU 0 while it lives: the round trip then
// needs two context switches instead of two cross-CPU wake-ups.
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

void pingpong(benchmark::State& state, Config config) {
  looplab::SteadyClock clock;
  EventLoop loop(clock, looplab::make_default_selector(), config.kind, config.rule);
  std::uint64_t writes_before = loop.threadsafe_queue().self_pipe().writes();
  long ops = 0;
  while (state.KeepRunningBatch(kRoundTrips)) {
    std::atomic<int> answered{0};
    std::thread pinger;
    loop.call_soon([&] {
      pinger = std::thread([&] {
        for (int i = 1; i <= kRoundTrips; ++i) {
          loop.call_soon_threadsafe([&loop, &answered, i] {
            answered.store(i, std::memory_order_release);
            answered.notify_one();
            if (i == kRoundTrips) loop.stop();
          });
          // Sleep (a futex) until the loop has answered: a round trip.
          for (int seen = answered.load(std::memory_order_acquire); seen < i;
               seen = answered.load(std::memory_order_acquire)) {
            answered.wait(seen, std::memory_order_acquire);
          }
        }
      });
    });
    loop.run_forever();
    pinger.join();
    ops += kRoundTrips;
  }
  label(state, loop, loop.threadsafe_queue().self_pipe().writes() - writes_before, ops);
}

void pingpong_pinned(benchmark::State& state, Config config) {
  PinnedToOneCpu pinned;
  pingpong(state, config);
}

// The default configuration under the plain names, then every configuration.
[[maybe_unused]] const bool registered = [] {
  Config defaults{looplab::default_self_pipe_kind(), looplab::default_wake_rule()};
  benchmark::RegisterBenchmark("threadsafe_flood", flood, defaults)->UseRealTime();
  benchmark::RegisterBenchmark("threadsafe_pingpong", pingpong, defaults)->UseRealTime();
  benchmark::RegisterBenchmark("threadsafe_pingpong_pinned", pingpong_pinned, defaults)
      ->UseRealTime();
  for (SelfPipe::Kind kind : {SelfPipe::Kind::kSocketPair, SelfPipe::Kind::kEventFd}) {
    for (ThreadsafeQueue::WakeRule rule :
         {ThreadsafeQueue::WakeRule::kEveryPost, ThreadsafeQueue::WakeRule::kOncePerDrain}) {
      Config config{kind, rule};
      std::string suffix = "/" + name_of(config);
      benchmark::RegisterBenchmark(("threadsafe_flood" + suffix).c_str(), flood, config)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("threadsafe_pingpong_pinned" + suffix).c_str(), pingpong_pinned,
                                   config)
          ->UseRealTime();
    }
  }
  return true;
}();

}  // namespace
