// selector.hpp: the interface between the loop and the kernel's readiness API.
//
// Python's selectors module gives asyncio one interface over select(), poll(),
// epoll and kqueue: register a descriptor with the events of interest, then
// select() waits until some are ready or the timeout passes. looplab's
// Selector is the same idea, and only that: the loop keeps the callbacks
// (asyncio stores them in the key's `data`); a selector knows descriptors and
// event masks. Stage 03 had one backend, select(2); stage 04 adds epoll,
// io_uring and kqueue behind this same interface (default_selector.hpp
// chooses one).
//
// Readiness is level-triggered, as in asyncio: a descriptor that stays
// readable is reported by every select() until it is drained or unregistered.
#pragma once

#include <chrono>
#include <optional>
#include <span>

namespace looplab {

// [selector]
/// Event masks, as in Python's selectors: EVENT_READ = 1, EVENT_WRITE = 2.
enum : unsigned { kEventRead = 1, kEventWrite = 2 };

/// One ready descriptor: which of its registered events are ready.
struct SelectorEvent {
  int fd;
  unsigned events;
};

class Selector {
 public:
  using Timeout = std::optional<std::chrono::nanoseconds>;  // nullopt: wait forever

  virtual ~Selector() = default;

  /// Starts watching `fd` for `events`. Throws ValueError/OSError if the
  /// descriptor cannot be watched (closed, too large, already registered).
  virtual void register_fd(int fd, unsigned events) = 0;
  /// Changes the events watched for a registered descriptor.
  virtual void modify(int fd, unsigned events) = 0;
  /// Stops watching `fd`.
  virtual void unregister(int fd) = 0;
  /// Called when a callback replaces another on a registered descriptor and
  /// the events stay the same. A kernel-side set (epoll, io_uring, kqueue)
  /// forgets a descriptor that is closed; if its number was reused, the new
  /// descriptor must be added again, or it would never be reported.
  /// select() rebuilds its set on every call, so by default nothing is done.
  virtual void renew(int fd) { (void)fd; }
  /// Waits until a registered descriptor is ready or `timeout` passes; returns
  /// the ready ones (valid until the next call). An interrupted wait (EINTR)
  /// is resumed with the time that is left, never reported.
  virtual std::span<const SelectorEvent> select(Timeout timeout) = 0;
  /// How many descriptors are registered.
  virtual std::size_t size() const noexcept = 0;
  /// The backend's name, for messages and benchmark labels ("select", "epoll").
  virtual const char* name() const noexcept = 0;
};
// [selector]

}  // namespace looplab
