// poll_selector_bench: select(2) against poll(2) on the same waits. One op is
// one round: a byte written into a socket pair, one select() of the backend,
// which finds that descriptor ready, and the byte read back. Around it:
//
// - wait_among_idle/N: N idle descriptors (N/2 socket pairs, both ends
//   watched for reading, never written) watched beside the busy one. Both
//   backends hand the kernel every watched descriptor on every call.
// - wait_high_numbered: the busy descriptor alone, numbered 1,000. select()
//   pays for every number below the highest; poll() for one entry.
//
// Both backends stay below FD_SETSIZE here, or select() could not take part.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <vector>

#include "looplab/lab/poll_selector.hpp"
#include "looplab/select_selector.hpp"

namespace {

using looplab::kEventRead;

struct Pair {
  Pair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) != 0)
      std::abort();
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  ~Pair() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  int fds[2] = {-1, -1};
};

// Rounds until the benchmark has its measure: write, wait, read.
void rounds(benchmark::State& state, looplab::Selector& selector, int reading, int writing) {
  char byte = 'x';
  for (auto _ : state) {
    if (::write(writing, &byte, 1) != 1) std::abort();
    auto ready = selector.select(std::nullopt);  // returns at once: the byte is there
    if (ready.size() != 1) {
      state.SkipWithError("expected exactly one ready descriptor");
      break;
    }
    if (::read(reading, &byte, 1) != 1) std::abort();
  }
  state.counters["watched"] = static_cast<double>(selector.size());
}

template <typename Backend>
void wait_among_idle(benchmark::State& state) {
  std::vector<Pair> idle(static_cast<std::size_t>(state.range(0)) / 2);
  Backend selector;
  for (Pair& pair : idle) {
    selector.register_fd(pair.fds[0], kEventRead);
    selector.register_fd(pair.fds[1], kEventRead);
  }
  Pair busy;
  selector.register_fd(busy.fds[0], kEventRead);
  rounds(state, selector, busy.fds[0], busy.fds[1]);
}
BENCHMARK(wait_among_idle<looplab::SelectSelector>)
    ->Name("wait_among_idle/select")
    ->Arg(0)
    ->Arg(100)
    ->Arg(1000);
BENCHMARK(wait_among_idle<looplab::lab::PollSelector>)
    ->Name("wait_among_idle/poll")
    ->Arg(0)
    ->Arg(100)
    ->Arg(1000);

template <typename Backend>
void wait_high_numbered(benchmark::State& state) {
  Pair busy;
  int high = ::fcntl(busy.fds[0], F_DUPFD_CLOEXEC, 1000);
  if (high < 0) {
    state.SkipWithError("cannot open descriptor 1000 (ulimit -n)");
    return;
  }
  Backend selector;
  selector.register_fd(high, kEventRead);
  rounds(state, selector, high, busy.fds[1]);
  ::close(high);
}
BENCHMARK(wait_high_numbered<looplab::SelectSelector>)->Name("wait_high_numbered/select");
BENCHMARK(wait_high_numbered<looplab::lab::PollSelector>)->Name("wait_high_numbered/poll");

}  // namespace
