#include "looplab/lab/edge_epoll_selector.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>

#include "looplab/deadline.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/selector_errors.hpp"

namespace looplab::lab {
namespace {

void check_events(unsigned events) {
  if ((events & (kEventRead | kEventWrite)) == 0 ||
      (events & ~(kEventRead | kEventWrite | kEventPeerClosed)) != 0) {
    throw ValueError("Invalid events: " + std::to_string(events) +
                     " (kEventRead, kEventWrite or both, with kEventPeerClosed or not)");
  }
}

// The bits to ask epoll for: the events, edge-triggered (rule 8).
std::uint32_t to_epoll(unsigned events) {
  // [edge_to_epoll_body]
  std::uint32_t bits = EPOLLET;
  if ((events & kEventRead) != 0) bits |= EPOLLIN;
  if ((events & kEventWrite) != 0) bits |= EPOLLOUT;
  if ((events & kEventPeerClosed) != 0) bits |= EPOLLRDHUP;
  return bits;
  // [edge_to_epoll_body]
}

// What epoll_wait() reported, as events (rule 8): asyncio's rule for the
// reader and the writer, except that EPOLLRDHUP, which asyncio never asks
// for, does not wake the writer.
unsigned from_epoll(std::uint32_t bits) {
  // [edge_from_epoll_body]
  constexpr std::uint32_t kNotForTheWriter = EPOLLIN | EPOLLRDHUP;
  constexpr std::uint32_t kPeerClosed = EPOLLRDHUP | EPOLLHUP;
  return ((bits & ~static_cast<std::uint32_t>(EPOLLOUT)) != 0 ? kEventRead : 0u) |
         ((bits & ~kNotForTheWriter) != 0 ? kEventWrite : 0u) |
         ((bits & kPeerClosed) != 0 ? kEventPeerClosed : 0u);
  // [edge_from_epoll_body]
}

}  // namespace

EdgeEpollSelector::EdgeEpollSelector() : epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)) {
  if (epoll_fd_ < 0) throw OSError(errno, "epoll_create1() failed");
}

EdgeEpollSelector::~EdgeEpollSelector() { ::close(epoll_fd_); }

void EdgeEpollSelector::control(int operation, int fd, unsigned events) {
  epoll_event event{};
  event.events = to_epoll(events);
  event.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, operation, fd, &event) != 0) throw_cannot_watch(errno, fd, "epoll");
}

void EdgeEpollSelector::register_fd(int fd, unsigned events) {
  interest_.check_new(fd);
  check_events(events);
  control(EPOLL_CTL_ADD, fd, events);  // arms: a ready descriptor is reported once
  interest_.add(fd, events);
}

void EdgeEpollSelector::unregister(int fd) {
  interest_.remove(fd);
  epoll_event unused{};
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, &unused) != 0 && errno != EBADF &&
      errno != ENOENT) {
    throw OSError(errno,
                  "epoll_ctl(EPOLL_CTL_DEL) failed for file descriptor " + std::to_string(fd));
  }
}

void EdgeEpollSelector::modify(int fd, unsigned events) {
  // [edge_modify_body]
  unsigned& registered = interest_.at(fd);
  check_events(events);
  // No shortcut for unchanged events: the call itself is what re-arms.
  rearm(fd, events);
  registered = events;
  // [edge_modify_body]
}

void EdgeEpollSelector::renew(int fd) { rearm(fd, interest_.at(fd)); }

void EdgeEpollSelector::rearm(int fd, unsigned events) {
  // [edge_rearm_body]
  epoll_event event{};
  event.events = to_epoll(events);
  event.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &event) == 0) return;
  if (errno != ENOENT) throw_cannot_watch(errno, fd, "epoll");
  control(EPOLL_CTL_ADD, fd, events);  // closed, and the number reused
  // [edge_rearm_body]
}

std::span<const SelectorEvent> EdgeEpollSelector::select(Timeout timeout) {
  // One wait collects every pending edge: an edge left in the kernel would be
  // reported late, by a wait that might not come soon.
  kernel_events_.resize(std::max<std::size_t>(1, interest_.size()));
  ready_.clear();
  Deadline deadline(timeout);
  // [edge_select_body]
  auto wait_ms = [&deadline]() -> int {
    Timeout left = deadline.remaining();
    if (!left) return -1;
    // Rounded up: a wait cut short would wake the loop before its timer.
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(*left).count();
    return static_cast<int>(std::min<decltype(ms)>(ms, 24LL * 3600 * 1000));
  };
  int n = 0;
  while ((n = ::epoll_wait(epoll_fd_, kernel_events_.data(),
                           static_cast<int>(kernel_events_.size()), wait_ms())) < 0) {
    if (errno != EINTR) throw OSError(errno, "epoll_wait() failed");
  }
  for (const epoll_event& event : std::span(kernel_events_.data(), static_cast<std::size_t>(n))) {
    unsigned events = from_epoll(event.events) & interest_.find(event.data.fd);
    if (events != 0) ready_.push_back(SelectorEvent{event.data.fd, events});
  }
  // [edge_select_body]
  return ready_;
}

}  // namespace looplab::lab
