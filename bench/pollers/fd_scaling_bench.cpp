// fd_scaling: what one round trip costs as the number of watched but idle
// descriptors grows, on every selector: the chapter's chart of O(n) against
// O(1). select() rebuilds and scans a bitmap of every watched descriptor on
// each call; epoll, io_uring and kqueue are told about a descriptor once and
// report only the ready ones.
//
// fd_scaling/<selector>/<idle>: idle = 1, 10, 100, 1,000, 10,000 (select()
// only up to 1,000: it cannot hold a descriptor numbered 1,024 or more).
#include <benchmark/benchmark.h>

#include <string>

#include "io/pingpong.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"

namespace {

using looplab::SelectorKind;

void fd_scaling(benchmark::State& state, SelectorKind kind) {
  auto idle = static_cast<int>(state.range(0));
  if (!looplab::bench::allow_open_files(static_cast<rlim_t>(idle) + 256)) {
    state.SkipWithError("the hard limit on open files (ulimit -Hn) is too low for this many");
    return;
  }
  looplab::SteadyClock clock;
  looplab::EventLoop loop(clock, looplab::make_selector(kind));
  // Fewer round trips per batch than reader_pingpong: select() with 1,000
  // idle descriptors takes about 100 µs per round trip.
  looplab::bench::run_pingpong(state, loop, idle, 1'000);
  loop.close();
}

[[maybe_unused]] const bool registered = [] {
  for (SelectorKind kind : looplab::compiled_selectors()) {
#ifdef LOOPLAB_KQUEUE_SHIM
    if (kind == SelectorKind::kKqueue) continue;  // epoll in disguise: says nothing about kqueue
#endif
    std::string name = "fd_scaling/" + std::string(looplab::to_string(kind));
    auto* bench = benchmark::RegisterBenchmark(name.c_str(), fd_scaling, kind);
    for (int idle : {1, 10, 100, 1'000, 10'000}) {
      if (kind == SelectorKind::kSelect && idle > 1'000) break;
      bench->Arg(idle);
    }
  }
  return true;
}();

}  // namespace
