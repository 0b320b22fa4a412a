#include "looplab/select_selector.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "looplab/deadline.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/selector_errors.hpp"

namespace looplab {
namespace {

// [check_watchable]
// (A negative descriptor is the InterestTable's error, as for every backend.)
void check_watchable(int fd) {
  if (fd >= FD_SETSIZE) {
    throw ValueError("file descriptor " + std::to_string(fd) +
                     " is too large for select() (FD_SETSIZE is " + std::to_string(FD_SETSIZE) +
                     "); epoll has no such limit");
  }
  if (::fcntl(fd, F_GETFD) == -1) throw_cannot_watch(errno, fd, "select");
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
  interest_.check_new(fd);
  check_watchable(fd);
  interest_.add(fd, events);
  max_fd_ = std::max(max_fd_, fd);
}

void SelectSelector::modify(int fd, unsigned events) { interest_.at(fd) = events; }

void SelectSelector::unregister(int fd) {
  interest_.remove(fd);
  while (max_fd_ >= 0 && interest_.find(max_fd_) == 0) --max_fd_;
}
// [register_fd]

// [select]
std::span<const SelectorEvent> SelectSelector::select(Timeout timeout) {
  Deadline deadline(timeout);
  ready_.clear();
  for (;;) {
    // select() overwrites its arguments: rebuild the bitmaps for every call.
    fd_set readers;
    fd_set writers;
    FD_ZERO(&readers);
    FD_ZERO(&writers);
    for (int fd = 0; fd <= max_fd_; ++fd) {
      unsigned events = interest_.find(fd);
      if ((events & kEventRead) != 0) FD_SET(fd, &readers);
      if ((events & kEventWrite) != 0) FD_SET(fd, &writers);
    }
    Timeout left = deadline.remaining();
    timeval wait = left ? to_timeval(*left) : timeval{};
    int n = ::select(max_fd_ + 1, &readers, &writers, nullptr, left ? &wait : nullptr);
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
