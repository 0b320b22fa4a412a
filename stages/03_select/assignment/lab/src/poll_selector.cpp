#include "looplab/lab/poll_selector.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab::lab {
namespace {

void check_events(unsigned events) {
  if (events == 0 || (events & ~static_cast<unsigned>(kEventRead | kEventWrite)) != 0) {
    throw ValueError("Invalid events: " + std::to_string(events) +
                     " (kEventRead, kEventWrite or both)");
  }
}

void check_open(int fd) {
  if (fd < 0) throw ValueError("Invalid file descriptor: " + std::to_string(fd));
  if (::fcntl(fd, F_GETFD) == -1) {
    throw OSError(errno, "file descriptor " + std::to_string(fd) + " is not open");
  }
}

// The bits to ask poll() for: kEventRead is POLLIN, kEventWrite is POLLOUT.
short to_poll(unsigned events) {
  // [poll_to_poll_body]
  return static_cast<short>(((events & kEventRead) != 0 ? POLLIN : 0) |
                            ((events & kEventWrite) != 0 ? POLLOUT : 0));
  // [poll_to_poll_body]
}

// What poll() returned, as asyncio reads it: any bit but POLLOUT wakes the
// reader, any bit but POLLIN wakes the writer (so POLLERR and POLLHUP wake
// both). Applied to an entry's `events` it gives back what was registered.
unsigned from_poll(short revents) {
  // [poll_from_poll_body]
  auto bits = static_cast<unsigned short>(revents);
  return ((bits & ~static_cast<unsigned>(POLLOUT)) != 0 ? kEventRead : 0u) |
         ((bits & ~static_cast<unsigned>(POLLIN)) != 0 ? kEventWrite : 0u);
  // [poll_from_poll_body]
}

// poll() counts in whole milliseconds: -1 waits for ever, 0 does not block.
int to_milliseconds(Selector::Timeout timeout) {
  // [poll_to_milliseconds_body]
  if (!timeout) return -1;
  // Round up, never down: a wait cut short wakes the loop before its timer is
  // due, and the loop spins until it is. (asyncio: math.ceil(timeout * 1e3).)
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(*timeout).count();
  constexpr decltype(ms) kOneDay = 24LL * 3600 * 1000;  // the loop never waits longer
  return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, kOneDay));
  // [poll_to_milliseconds_body]
}

}  // namespace

std::size_t PollSelector::position_of(int fd) const {
  // [poll_position_of_body]
  if (fd < 0 || static_cast<std::size_t>(fd) >= index_.size() ||
      index_[static_cast<std::size_t>(fd)] == kNotRegistered) {
    throw ValueError("file descriptor " + std::to_string(fd) + " is not registered");
  }
  return index_[static_cast<std::size_t>(fd)];
  // [poll_position_of_body]
}

void PollSelector::register_fd(int fd, unsigned events) {
  check_open(fd);
  check_events(events);
  // [poll_register_body]
  auto slot = static_cast<std::size_t>(fd);
  if (slot >= index_.size()) index_.resize(slot + 1, kNotRegistered);
  if (index_[slot] != kNotRegistered) {
    throw ValueError("file descriptor " + std::to_string(fd) + " is already registered");
  }
  index_[slot] = pollfds_.size();
  pollfds_.push_back(pollfd{fd, to_poll(events), 0});
  // [poll_register_body]
}

void PollSelector::modify(int fd, unsigned events) {
  // [poll_modify_body]
  std::size_t position = position_of(fd);  // a ValueError first, as asyncio's KeyError
  check_events(events);
  pollfds_[position].events = to_poll(events);
  // [poll_modify_body]
}

void PollSelector::unregister(int fd) {
  // [poll_unregister_body]
  std::size_t position = position_of(fd);
  // The last entry fills the hole, and its index follows it.
  pollfds_[position] = pollfds_.back();
  index_[static_cast<std::size_t>(pollfds_[position].fd)] = position;
  pollfds_.pop_back();
  index_[static_cast<std::size_t>(fd)] = kNotRegistered;
  // [poll_unregister_body]
}

std::span<const SelectorEvent> PollSelector::select(Timeout timeout) {
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> deadline;
  if (timeout) deadline = Clock::now() + *timeout;
  ready_.clear();
  // [poll_select_body]
  int n = 0;
  for (;;) {
    Timeout left;
    if (deadline)
      left = std::max<Clock::duration>(Clock::duration::zero(), *deadline - Clock::now());
    n = ::poll(pollfds_.data(), pollfds_.size(), to_milliseconds(left));
    if (n >= 0) break;
    if (errno != EINTR) throw OSError(errno, "poll() failed");
    // A signal: wait again, for the time that is left.
  }
  // poll() wrote revents in place: n entries have some. Nothing is rebuilt.
  for (const pollfd& entry : pollfds_) {
    if (n == 0) break;
    if (entry.revents == 0) continue;
    --n;
    if ((entry.revents & POLLNVAL) != 0) {
      throw OSError(EBADF, "file descriptor " + std::to_string(entry.fd) +
                               " was closed while registered with poll()");
    }
    unsigned events = from_poll(entry.revents) & from_poll(entry.events);
    if (events != 0) ready_.push_back(SelectorEvent{entry.fd, events});
  }
  // [poll_select_body]
  return ready_;
}

}  // namespace looplab::lab
