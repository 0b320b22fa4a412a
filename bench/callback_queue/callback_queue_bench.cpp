// Stage 01 workloads. Each reports nanoseconds per operation (KeepRunningBatch
// counts one iteration per operation) for the same workload as its twin in
// comparisons/asyncio/callback_queue/, so the two can be set side by side.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench_support.hpp"
#include "looplab/event_loop.hpp"
#if LOOPLAB_STAGE >= 4
#include "looplab/default_selector.hpp"
#endif

namespace {

using looplab::ContextVar;
using looplab::EventLoop;
using looplab::Handle;

using looplab::bench::note_what_is_skipped;
using looplab::bench::run_one_turn;

// call_soon_batch: queue 1,000,000 no-op callbacks, then run them in one turn.
// One operation = one callback queued and run.
void call_soon_batch(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kBatch = 1'000'000;
  EventLoop loop;
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) loop.call_soon([] {});
    run_one_turn(loop);
  }
}
BENCHMARK(call_soon_batch);

// call_soon_chain: a callback that reschedules itself, one hop per turn.
// One operation = one hop = one whole turn of the loop.
void chain_on(benchmark::State& state, EventLoop& loop) {
  constexpr int kHops = 100'000;
  int remaining = 0;
  struct Hop {
    EventLoop* loop;
    int* remaining;
    void operator()() const {
      if (--*remaining == 0) {
        loop->stop();
      } else {
        loop->call_soon(*this);
      }
    }
  };
  while (state.KeepRunningBatch(kHops)) {
    remaining = kHops;
    loop.call_soon(Hop{&loop, &remaining});
    loop.run_forever();
  }
}

void call_soon_chain(benchmark::State& state) {
  note_what_is_skipped(state);
  EventLoop loop;
  chain_on(state, loop);
}
BENCHMARK(call_soon_chain);

#if LOOPLAB_STAGE >= 4
// From stage 04, the same on every selector: a turn with something ready
// only looks for I/O (timeout 0). epoll and select() need a system call for
// that; io_uring reads its completion queue in user space. One idle
// descriptor is watched, as asyncio's self-pipe is, so that from stage 07 on
// the turn still polls.
void call_soon_chain_on(benchmark::State& state, looplab::SelectorKind kind) {
  looplab::SteadyClock clock;
  EventLoop loop(clock, looplab::make_selector(kind));
  looplab::bench::IdleReader watched(loop);
  state.SetLabel(std::string(loop.selector().name()) + ": one idle descriptor watched");
  chain_on(state, loop);
}

[[maybe_unused]] const bool chain_registered = [] {
  for (looplab::SelectorKind kind : looplab::compiled_selectors()) {
#ifdef LOOPLAB_KQUEUE_SHIM
    if (kind == looplab::SelectorKind::kKqueue) continue;  // epoll in disguise
#endif
    std::string name = "call_soon_chain/" + std::string(looplab::to_string(kind));
    benchmark::RegisterBenchmark(name.c_str(), call_soon_chain_on, kind);
  }
  return true;
}();
#endif

// handle_cancel: queue 100,000 callbacks keeping their handles, cancel every
// second one, run one turn. One operation = one queued handle.
void handle_cancel(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kBatch = 100'000;
  EventLoop loop;
  std::vector<Handle> handles;
  handles.reserve(kBatch);
  long ran = 0;
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) handles.push_back(loop.call_soon([&ran] { ++ran; }));
    for (int i = 0; i < kBatch; i += 2) handles[i].cancel();
    run_one_turn(loop);
    handles.clear();
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(handle_cancel);

// context_capture: with a ContextVar set, queue 100,000 callbacks (each
// captures the context) that each do var.set(var.get() + 1) inside it.
// One operation = one callback.
ContextVar<long> counter("counter");

void context_capture(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kBatch = 100'000;
  EventLoop loop;
  counter.set(0);
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) loop.call_soon([] { counter.set(counter.get() + 1); });
    run_one_turn(loop);
  }
}
BENCHMARK(context_capture);

}  // namespace
