// edge_helpers.hpp: what the edge-triggered selector's tests share: one
// select() looked at for one descriptor, and a consumer's two loops, read
// until EAGAIN and write until EAGAIN.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <vector>

#include "looplab/selector.hpp"

namespace looplab::lab::edge_testing {

inline constexpr std::chrono::nanoseconds kNoWait{0};
inline constexpr std::size_t kChunk = 65'536;  // bytes per read() or write()

/// The events one select(timeout) reports for `fd` (0 if none); a failure if
/// it reports `fd` twice.
inline unsigned events_for(Selector& selector, int fd, Selector::Timeout timeout = kNoWait) {
  unsigned events = 0;
  int seen = 0;
  for (const SelectorEvent& event : selector.select(timeout)) {
    if (event.fd == fd) {
      events = event.events;
      ++seen;
    }
  }
  EXPECT_LE(seen, 1) << "descriptor " << fd << " reported " << seen << " times by one select()";
  return events;
}

/// Reads `fd` (non-blocking) until EAGAIN or end of file; returns the bytes read.
inline std::size_t read_until_eagain(int fd) {
  std::vector<char> buffer(kChunk);
  std::size_t total = 0;
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n <= 0) {
      EXPECT_TRUE(n == 0 || errno == EAGAIN) << "read() failed: errno " << errno;
      return total;
    }
    total += static_cast<std::size_t>(n);
  }
}

/// Writes into `fd` (non-blocking) until EAGAIN; returns the bytes written.
inline std::size_t write_until_eagain(int fd) {
  std::vector<char> buffer(kChunk, 'x');
  std::size_t total = 0;
  for (;;) {
    ssize_t n = ::write(fd, buffer.data(), buffer.size());
    if (n < 0) {
      EXPECT_EQ(errno, EAGAIN) << "write() failed";
      return total;
    }
    total += static_cast<std::size_t>(n);
  }
}

}  // namespace looplab::lab::edge_testing
