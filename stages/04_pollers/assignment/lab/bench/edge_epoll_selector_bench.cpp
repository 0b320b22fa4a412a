// edge_epoll_selector_bench: level against edge triggering when the program
// is behind. N descriptors hold data that nobody reads yet (a slow consumer,
// a connection paused by backpressure), beside one busy socket pair. One op
// is one round: a byte written into the busy pair, one select(), the byte
// read back. The level-triggered EpollSelector reports the N descriptors in
// every select(), since they stay readable; the edge-triggered one reported
// them once, in the first round, and then only the busy one.
#include <benchmark/benchmark.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <vector>

#include "looplab/epoll_selector.hpp"
#include "looplab/lab/edge_epoll_selector.hpp"

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

template <typename Backend>
void wait_with_backlog(benchmark::State& state) {
  std::vector<Pair> behind(static_cast<std::size_t>(state.range(0)));
  Backend selector;
  char byte = 'x';
  for (Pair& pair : behind) {
    selector.register_fd(pair.fds[0], kEventRead);
    if (::write(pair.fds[1], &byte, 1) != 1) std::abort();  // never read
  }
  Pair busy;
  selector.register_fd(busy.fds[0], kEventRead);
  double reported = 0;
  for (auto _ : state) {
    if (::write(busy.fds[1], &byte, 1) != 1) std::abort();
    reported += static_cast<double>(selector.select(std::nullopt).size());
    if (::read(busy.fds[0], &byte, 1) != 1) std::abort();
  }
  state.counters["reported_per_wait"] =
      benchmark::Counter(reported, benchmark::Counter::kAvgIterations);
}
BENCHMARK(wait_with_backlog<looplab::EpollSelector>)
    ->Name("wait_with_backlog/level")
    ->Arg(0)
    ->Arg(100)
    ->Arg(1000);
BENCHMARK(wait_with_backlog<looplab::lab::EdgeEpollSelector>)
    ->Name("wait_with_backlog/edge")
    ->Arg(0)
    ->Arg(100)
    ->Arg(1000);

}  // namespace
