#include "looplab/select_selector.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {
namespace {

// [check_watchable]
void check_watchable(int fd) {
  if (fd < 0) throw ValueError("Invalid file descriptor: " + std::to_string(fd));
  if (fd >= FD_SETSIZE) {
    throw ValueError("file descriptor " + std::to_string(fd) +
                     " is too large for select() (FD_SETSIZE is " + std::to_string(FD_SETSIZE) +
                     "); stage 04's epoll has no such limit");
  }
  if (::fcntl(fd, F_GETFD) == -1) {
    throw OSError(errno, "file descriptor " + std::to_string(fd) + " is not open");
  }
}

timeval to_timeval(std::chrono::nanoseconds timeout) {
  auto micros = std::chrono::ceil<std::chrono::microseconds>(timeout);  // never wake early
  return timeval{static_cast<time_t>(micros.count() / 1'000'000),
                 static_cast<suseconds_t>(micros.count() % 1'000'000)};
}
// [check_watchable]

}  // namespace

// [register_fd]
void SelectSelector::register_fd(int fd, unsigned events) {
  check_watchable(fd);
  if (static_cast<std::size_t>(fd) >= interest_.size())
    interest_.resize(static_cast<std::size_t>(fd) + 1, 0);
  if (interest_[static_cast<std::size_t>(fd)] != 0) {
    throw ValueError("file descriptor " + std::to_string(fd) + " is already registered");
  }
  interest_[static_cast<std::size_t>(fd)] = events;
  ++count_;
  max_fd_ = std::max(max_fd_, fd);
}

unsigned& SelectSelector::interest(int fd) {
  if (fd < 0 || static_cast<std::size_t>(fd) >= interest_.size() ||
      interest_[static_cast<std::size_t>(fd)] == 0) {
    throw ValueError("file descriptor " + std::to_string(fd) + " is not registered");
  }
  return interest_[static_cast<std::size_t>(fd)];
}

void SelectSelector::modify(int fd, unsigned events) { interest(fd) = events; }

void SelectSelector::unregister(int fd) {
  interest(fd) = 0;
  --count_;
  while (max_fd_ >= 0 && interest_[static_cast<std::size_t>(max_fd_)] == 0) --max_fd_;
}
// [register_fd]

// [select]
std::span<const SelectorEvent> SelectSelector::select(Timeout timeout) {
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> deadline;
  if (timeout) deadline = Clock::now() + *timeout;
  ready_.clear();
  for (;;) {
    // select() overwrites its arguments: rebuild the bitmaps for every call.
    fd_set readers;
    fd_set writers;
    FD_ZERO(&readers);
    FD_ZERO(&writers);
    for (int fd = 0; fd <= max_fd_; ++fd) {
      unsigned events = interest_[static_cast<std::size_t>(fd)];
      if ((events & kEventRead) != 0) FD_SET(fd, &readers);
      if ((events & kEventWrite) != 0) FD_SET(fd, &writers);
    }
    timeval wait{};
    if (deadline) wait = to_timeval(std::max(Clock::duration::zero(), *deadline - Clock::now()));
    int n = ::select(max_fd_ + 1, &readers, &writers, nullptr, deadline ? &wait : nullptr);
    if (n < 0 && errno == EINTR) continue;  // a signal: wait again for the time that is left
    if (n < 0) throw OSError(errno, "select() failed");
    for (int fd = 0; n > 0 && fd <= max_fd_; ++fd) {
      unsigned events =
          (FD_ISSET(fd, &readers) ? kEventRead : 0u) | (FD_ISSET(fd, &writers) ? kEventWrite : 0u);
      if (events != 0) {
        ready_.push_back(SelectorEvent{fd, events});
        n -= (events == (kEventRead | kEventWrite)) ? 2 : 1;
      }
    }
    return ready_;
  }
}
// [select]

}  // namespace looplab
