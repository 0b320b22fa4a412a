// pingpong.hpp: the reader ping-pong workload, shared by bench/io (one
// selector) and bench/pollers (every selector, and many idle descriptors).
//
// Two readers bounce one byte over a socket pair: end A reads the byte and
// writes it back, end B reads it and writes it back. One op = one round trip;
// each turn of the loop polls the selector once and runs the one ready reader.
// The same workload as comparisons/asyncio/io/reader_pingpong.py and the C
// floors in comparisons/native/.
#pragma once

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "looplab/event_loop.hpp"

namespace looplab::bench {

inline std::array<int, 2> make_socket_pair() {
  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    throw std::runtime_error("socketpair() failed");
  }
  return ends;
}

/// Raises the soft limit on open files to at least `wanted`, if the hard
/// one allows; returns whether the limit is now at least `wanted`.
inline bool allow_open_files(rlim_t wanted) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < wanted) {
    limit.rlim_cur = std::min(wanted, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur >= wanted;
}

/// Runs the ping-pong on `loop`, `round_trips` per batch, with
/// `idle_descriptors` more descriptors watched that never become readable.
inline void run_pingpong(benchmark::State& state, EventLoop& loop, int idle_descriptors,
                         int round_trips) {
  state.SetLabel(loop.selector().name());
  // The active pair first, as in the twin: select() scans descriptors in
  // number order, and a blocking select() that meets the ready descriptor
  // early skips queueing itself on the idle ones after it.
  auto [a, b] = make_socket_pair();
  std::vector<int> idle;
  while (static_cast<int>(idle.size()) < idle_descriptors) {
    auto pair = make_socket_pair();
    idle.push_back(pair[0]);
    idle.push_back(pair[1]);
  }
  if (static_cast<int>(idle.size()) > idle_descriptors) {  // an odd count: one end unwatched
    ::close(idle.back());
    idle.pop_back();
  }
  for (int fd : idle) loop.add_reader(fd, [] {});  // never readable
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
  while (state.KeepRunningBatch(round_trips)) {
    remaining = round_trips;
    (void)::write(b, &byte, 1);
    loop.run_forever();
  }
  for (int fd : idle) loop.remove_reader(fd);
  loop.remove_reader(a);
  loop.remove_reader(b);
  for (int fd : idle) ::close(fd);
  ::close(a);
  ::close(b);
}

}  // namespace looplab::bench
