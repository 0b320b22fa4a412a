// Stage 03 workloads: I/O readiness. Same names and definitions as the twins
// in comparisons/asyncio/io/ (which run asyncio with a SelectSelector).
#include <benchmark/benchmark.h>

#include <string>

#include "io/pingpong.hpp"
#include "looplab/event_loop.hpp"
#if LOOPLAB_STAGE >= 4
#include "looplab/default_selector.hpp"
#endif

namespace {

using looplab::EventLoop;
using looplab::bench::run_pingpong;

constexpr int kRoundTrips = 10'000;

// On the loop's default selector (from stage 04: LOOPLAB_SELECTOR, or the best).
void reader_pingpong(benchmark::State& state) {
  EventLoop loop;
  run_pingpong(state, loop, 0, kRoundTrips);
  loop.close();
}
BENCHMARK(reader_pingpong);

// The same with 1,000 idle descriptors watched: select() scans them all on
// every call, so each turn costs in proportion to what is watched.
void reader_pingpong_idle1000(benchmark::State& state) {
  looplab::bench::allow_open_files(4096);  // 1,000 come close to the default 1,024
  EventLoop loop;
  run_pingpong(state, loop, 1000, kRoundTrips);
  loop.close();
}
BENCHMARK(reader_pingpong_idle1000);

#if LOOPLAB_STAGE >= 4
// From stage 04: both workloads on every selector, in one run, as
// reader_pingpong/<selector>. (A kqueue over the test shim is not measured:
// it is epoll with a translation layer, and says nothing about kqueue.)
void pingpong_on(benchmark::State& state, looplab::SelectorKind kind, int idle) {
  looplab::bench::allow_open_files(4096);
  looplab::SteadyClock clock;
  EventLoop loop(clock, looplab::make_selector(kind));
  run_pingpong(state, loop, idle, kRoundTrips);
  loop.close();
}

[[maybe_unused]] const bool registered = [] {
  for (looplab::SelectorKind kind : looplab::compiled_selectors()) {
    std::string name(looplab::to_string(kind));
#ifdef LOOPLAB_KQUEUE_SHIM
    if (kind == looplab::SelectorKind::kKqueue) continue;
#endif
    benchmark::RegisterBenchmark(("reader_pingpong/" + name).c_str(), pingpong_on, kind, 0);
    benchmark::RegisterBenchmark(("reader_pingpong_idle1000/" + name).c_str(), pingpong_on, kind,
                                 1000);
  }
  return true;
}();
#endif

}  // namespace
