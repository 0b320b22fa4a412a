// poll_selector.hpp: extension lab 03, the Selector over poll(2), Python's
// selectors.PollSelector.
//
// select() is handed bitmaps indexed by descriptor number: a wait costs in
// proportion to the highest number watched, and no number can reach
// FD_SETSIZE (1024). poll() is handed an array of `struct pollfd {fd, events,
// revents}`, one entry per watched descriptor, whatever its number: no limit
// on the number, and a wait costs in proportion to how many are watched. The
// array is still copied into the kernel and scanned on every call; epoll
// (chapter 4) is what removes that.
//
// The array is the registration: it is kept in step with register_fd(),
// modify() and unregister(), and passed to poll() as it is, never rebuilt.
// An index by descriptor number finds a descriptor's entry in O(1); removing
// an entry moves the last one into its place, so the order of the entries
// (and of the events select() returns) is not the order of registration.
//
// Translation, as asyncio's _PollLikeSelector does it: kEventRead is POLLIN,
// kEventWrite is POLLOUT. Of the bits poll() returns, any bit other than
// POLLOUT wakes the reader and any bit other than POLLIN wakes the writer,
// then only the registered events are kept. So POLLERR and POLLHUP, which
// poll() reports whether asked for or not, wake both, and each callback
// meets the error (or the end of file) in its own read() or write().
//
// POLLNVAL is different: the descriptor was closed while still registered.
// select(2) fails with EBADF then, and the loop's drop_closed_descriptors()
// is written for that; so this backend fails the same way, with an OSError
// (EBADF) naming the descriptor, and the loop treats both backends alike.
// (asyncio's PollSelector instead reports such a descriptor readable and
// writable on every call, and its callbacks meet EBADF.)
#pragma once

#include <poll.h>

#include <cstddef>
#include <span>
#include <vector>

#include "looplab/selector.hpp"

namespace looplab::lab {

class PollSelector final : public Selector {
 public:
  /// Starts watching `fd` for `events` (kEventRead, kEventWrite or both).
  /// Throws ValueError for a negative descriptor, for events that are 0 or
  /// hold another bit, and for a descriptor already registered; OSError
  /// (EBADF) for a descriptor that is not open. Any number a process may open
  /// is accepted: there is no FD_SETSIZE here. A refused call changes nothing.
  void register_fd(int fd, unsigned events) override;
  /// Changes the events watched for `fd`, in O(1). Throws ValueError if `fd`
  /// is not registered or the events are invalid (as register_fd()).
  void modify(int fd, unsigned events) override;
  /// Stops watching `fd`, in O(1): the last entry of the array takes its
  /// place. Throws ValueError if `fd` is not registered (twice is a mistake).
  /// A descriptor closed while registered is unregistered like any other.
  void unregister(int fd) override;
  /// Waits in poll() until a registered descriptor is ready or `timeout`
  /// passes: nullopt waits for ever, zero does not block, any other timeout is
  /// rounded up to whole milliseconds (poll() counts in them; rounding down
  /// would wake the loop before its timer is due) and capped at one day.
  /// Returns one SelectorEvent per ready descriptor with only its registered
  /// events, translated as above, in the order of the array. EINTR resumes the
  /// wait for the time that is left. A registered descriptor that was closed
  /// (POLLNVAL) is an OSError with EBADF; any other failure an OSError too.
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return pollfds_.size(); }
  const char* name() const noexcept override { return "poll"; }

 private:
  static constexpr std::size_t kNotRegistered = static_cast<std::size_t>(-1);

  /// The position of `fd`'s entry in pollfds_. Throws ValueError if `fd` is
  /// not registered.
  std::size_t position_of(int fd) const;

  std::vector<pollfd> pollfds_;       // what poll() reads: one entry per registered descriptor
  std::vector<std::size_t> index_;    // by descriptor: its position in pollfds_, or kNotRegistered
  std::vector<SelectorEvent> ready_;  // what the last select() returned
};

}  // namespace looplab::lab
