// bench_support.hpp: what every stage's benchmarks share.
#pragma once

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <stdexcept>

#include "looplab/event_loop.hpp"

namespace looplab::bench {

/// The label's words, from stage 07, for a loop the program has given no
/// descriptor to watch.
inline constexpr const char* kNothingWatched =
    "no I/O poll in a turn that must not wait: the program watches no descriptor";

#if LOOPLAB_STAGE >= 3
/// One end of a pipe that never becomes readable, watched by `loop` while
/// this lives. A benchmark that measures each selector's poll keeps one, as
/// asyncio's loop keeps its self-pipe: from stage 07 a turn that must not
/// wait polls only while a descriptor is watched.
class IdleReader {
 public:
  explicit IdleReader(EventLoop& loop) : loop_(&loop) {
    if (::pipe2(fds_.data(), O_CLOEXEC | O_NONBLOCK) != 0) {
      throw std::runtime_error("pipe2() failed");
    }
    loop_->add_reader(fds_[0], [] {});
  }
  IdleReader(const IdleReader&) = delete;
  IdleReader& operator=(const IdleReader&) = delete;
  ~IdleReader() {
    loop_->remove_reader(fds_[0]);
    ::close(fds_[0]);
    ::close(fds_[1]);
  }

 private:
  EventLoop* loop_;
  std::array<int, 2> fds_{-1, -1};
};
#endif

/// What this stage's loop skips that asyncio's does, so the report can say so
/// next to the figures: before stage 03 there is no selector to poll each
/// turn, and from stage 07 a turn that must not wait polls only if the
/// program watches a descriptor (asyncio's always watches its self-pipe).
inline void note_what_is_skipped(benchmark::State& state) {
#if LOOPLAB_STAGE < 3
  state.SetLabel("no I/O poll per turn: this stage has no selector");
#elif LOOPLAB_STAGE >= 7
  state.SetLabel(kNothingWatched);
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
