// Stage 03 workloads: I/O readiness. Same names and definitions as the twins
// in comparisons/asyncio/io/ (which run asyncio with a SelectSelector).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "looplab/event_loop.hpp"

namespace {

using looplab::EventLoop;

std::array<int, 2> make_socket_pair() {
  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    throw std::runtime_error("socketpair() failed");
  }
  return ends;
}

// One op = one round trip: end A reads the byte and writes it back, end B
// reads it and writes it back. Each turn polls the selector once.
void run_pingpong(benchmark::State& state, int idle_descriptors) {
  constexpr int kRoundTrips = 10'000;
  EventLoop loop;
  state.SetLabel(loop.selector().name());
  // The active pair first, as in the twin: select() scans descriptors in
  // number order, and a blocking select() that meets the ready descriptor
  // early skips queueing itself on the idle ones after it.
  auto [a, b] = make_socket_pair();
  std::vector<std::array<int, 2>> idle;
  for (int i = 0; i < idle_descriptors / 2; ++i) {
    idle.push_back(make_socket_pair());
    for (int fd : idle.back()) loop.add_reader(fd, [] {});  // never readable
  }
  int remaining = 0;
  char byte = 'x';
  loop.add_reader(a, [&, a = a] {
    (void)::read(a, &byte, 1);
    if (--remaining == 0) {
      loop.stop();
    } else {
      (void)::write(a, &byte, 1);
    }
  });
  loop.add_reader(b, [&, b = b] {
    (void)::read(b, &byte, 1);
    (void)::write(b, &byte, 1);
  });
  while (state.KeepRunningBatch(kRoundTrips)) {
    remaining = kRoundTrips;
    (void)::write(b, &byte, 1);
    loop.run_forever();
  }
  loop.close();
  for (int fd : {a, b}) ::close(fd);
  for (auto& pair : idle) {
    for (int fd : pair) ::close(fd);
  }
}

void reader_pingpong(benchmark::State& state) { run_pingpong(state, 0); }
BENCHMARK(reader_pingpong);

// The same with 1,000 idle descriptors watched: select() scans them all on
// every call, so each turn costs in proportion to what is watched.
void reader_pingpong_idle1000(benchmark::State& state) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);  // 1,000 descriptors come close to the default 1,024
  if (limit.rlim_cur < 4096 && limit.rlim_max >= 4096) {
    limit.rlim_cur = 4096;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  run_pingpong(state, 1000);
}
BENCHMARK(reader_pingpong_idle1000);

}  // namespace
