// bench_support.hpp: what every stage's benchmarks share.
#pragma once

#include <benchmark/benchmark.h>

#include "looplab/event_loop.hpp"

namespace looplab::bench {

/// What this stage's loop skips that asyncio's does, so the report can say so
/// next to the figures: before stage 03 there is no selector to poll each turn.
inline void note_what_is_skipped(benchmark::State& state) {
#if LOOPLAB_STAGE < 3
  state.SetLabel("no I/O poll per turn: this stage has no selector");
#else
  (void)state;
#endif
}

/// asyncio's "loop.stop(); loop.run_forever()": exactly one turn.
inline void run_one_turn(EventLoop& loop) {
  loop.stop();
  loop.run_forever();
}

}  // namespace looplab::bench
