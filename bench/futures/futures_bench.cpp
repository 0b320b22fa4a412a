// Stage 05 workloads: futures. Same names and definitions as the twins in
// comparisons/asyncio/futures/; one iteration = one operation (KeepRunningBatch).
#include <benchmark/benchmark.h>

#include "bench_support.hpp"
#include "looplab/event_loop.hpp"

namespace {

using looplab::EventLoop;
using looplab::Future;

using looplab::bench::note_what_is_skipped;
using looplab::bench::run_one_turn;

// future_resolve: 1,000 times create a future, add a done callback and
// resolve it (which queues the callback), then run the one turn that runs
// the 1,000 callbacks. One op = one future created, resolved and its
// callback run; each turn (with its selector poll, up to stage 06) is
// shared by 1,000 ops.
void future_resolve(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kPerTurn = 1'000;
  EventLoop loop;
  long ran = 0;
  while (state.KeepRunningBatch(kPerTurn)) {
    for (int i = 0; i < kPerTurn; ++i) {
      Future<int> future = loop.create_future<int>();
      future.add_done_callback([&ran](Future<int>&) { ++ran; });
      future.set_result(i);
    }  // our reference goes: the queued callback holds the future until it has run
    run_one_turn(loop);
  }
  benchmark::DoNotOptimize(ran);
}
BENCHMARK(future_resolve);

// future_chain: a future whose done callback creates the next future, adds
// itself to it and resolves it; 100,000 hops, then the last one stops the
// loop. Done callbacks never run inline, so each hop is one turn of the loop
// (with its selector poll, up to stage 06: see note_what_is_skipped). One
// op = one hop.
struct ChainHop {
  EventLoop* loop;
  int* remaining;
  void operator()(Future<>&) const {
    if (--*remaining == 0) {
      loop->stop();
      return;
    }
    Future<> next = loop->create_future();
    next.add_done_callback(*this);
    next.set_result();
  }
};

void future_chain(benchmark::State& state) {
  note_what_is_skipped(state);
  constexpr int kHops = 100'000;
  EventLoop loop;
  int remaining = 0;
  while (state.KeepRunningBatch(kHops)) {
    remaining = kHops;
    Future<> first = loop.create_future();
    first.add_done_callback(ChainHop{&loop, &remaining});
    first.set_result();
    loop.run_forever();
  }
}
BENCHMARK(future_chain);

}  // namespace
