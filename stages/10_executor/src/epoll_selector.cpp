#include "looplab/epoll_selector.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "looplab/deadline.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/selector_errors.hpp"

namespace looplab {
namespace {

// [epoll_translate]
std::uint32_t to_epoll(unsigned events) {
  return ((events & kEventRead) != 0 ? EPOLLIN : 0u) |
         ((events & kEventWrite) != 0 ? EPOLLOUT : 0u);
}

// asyncio's translation: any bit but EPOLLOUT wakes the reader, any bit but
// EPOLLIN wakes the writer. So EPOLLERR and EPOLLHUP, which epoll reports
// whether asked for or not, wake both: each callback then meets the error in
// its own read() or write().
unsigned from_epoll(std::uint32_t epoll_events) {
  // [from_epoll_body]
  return ((epoll_events & ~static_cast<std::uint32_t>(EPOLLOUT)) != 0 ? kEventRead : 0u) |
         ((epoll_events & ~static_cast<std::uint32_t>(EPOLLIN)) != 0 ? kEventWrite : 0u);
  // [from_epoll_body]
}

// epoll_wait() counts in whole milliseconds: round up, so that a timer is
// never reported due before its deadline and the loop never spins waiting
// for it. (asyncio: math.ceil(timeout * 1e3) * 1e-3.)
int to_milliseconds(Selector::Timeout timeout) {
  if (!timeout) return -1;
  // [to_milliseconds_body]
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(*timeout).count();
  constexpr decltype(ms) kOneDay = 24LL * 3600 * 1000;  // the loop never waits longer
  return static_cast<int>(std::min(ms, kOneDay));
  // [to_milliseconds_body]
}
// [epoll_translate]

}  // namespace

EpollSelector::EpollSelector() : epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)) {
  if (epoll_fd_ < 0) throw OSError(errno, "epoll_create1() failed");
}

EpollSelector::~EpollSelector() { ::close(epoll_fd_); }

// [epoll_control]
void EpollSelector::control(int operation, int fd, unsigned events) {
  epoll_event event{};
  event.events = to_epoll(events);
  event.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, operation, fd, &event) != 0) throw_cannot_watch(errno, fd, "epoll");
}

void EpollSelector::register_fd(int fd, unsigned events) {
  interest_.check_new(fd);
  control(EPOLL_CTL_ADD, fd, events);  // throws for a closed or unsuitable descriptor
  interest_.add(fd, events);
}

void EpollSelector::modify(int fd, unsigned events) {
  unsigned& registered = interest_.at(fd);
  if (events == registered) return;  // the kernel knows already: no system call
  modify_or_add(fd, events);
  registered = events;
}

void EpollSelector::unregister(int fd) {
  interest_.remove(fd);
  // Like asyncio, ignore a descriptor that was closed first: closing it
  // already took it out of the kernel's set (EBADF, or ENOENT once reused).
  epoll_event unused{};
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, &unused) != 0 && errno != EBADF &&
      errno != ENOENT) {
    throw OSError(errno,
                  "epoll_ctl(EPOLL_CTL_DEL) failed for file descriptor " + std::to_string(fd));
  }
}

// The stale-descriptor case asyncio leaves open: a callback replaced on a
// descriptor number that was closed and reused.
void EpollSelector::renew(int fd) { modify_or_add(fd, interest_.at(fd)); }

// EPOLL_CTL_MOD, or EPOLL_CTL_ADD when the kernel answers ENOENT: the
// descriptor was closed (which took it out of the set) and its number
// reused by a new one, which is not in the set yet.
void EpollSelector::modify_or_add(int fd, unsigned events) {
  epoll_event event{};
  event.events = to_epoll(events);
  event.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &event) == 0) return;
  if (errno != ENOENT) throw_cannot_watch(errno, fd, "epoll");
  control(EPOLL_CTL_ADD, fd, events);
}
// [epoll_control]

// [epoll_select]
std::span<const SelectorEvent> EpollSelector::select(Timeout timeout) {
  // Room for every registered descriptor, as asyncio asks: one wait can
  // report them all.
  kernel_events_.resize(std::max<std::size_t>(1, interest_.size()));
  ready_.clear();
  Deadline deadline(timeout);
  // [epoll_select_body]
  int n = 0;
  while (
      (n = ::epoll_wait(epoll_fd_, kernel_events_.data(), static_cast<int>(kernel_events_.size()),
                        to_milliseconds(deadline.remaining()))) < 0) {
    if (errno != EINTR) throw OSError(errno, "epoll_wait() failed");
  }
  for (const epoll_event& event : std::span(kernel_events_.data(), static_cast<std::size_t>(n))) {
    unsigned events = from_epoll(event.events) & interest_.find(event.data.fd);
    if (events != 0) ready_.push_back(SelectorEvent{event.data.fd, events});
  }
  // [epoll_select_body]
  return ready_;
}
// [epoll_select]

}  // namespace looplab
