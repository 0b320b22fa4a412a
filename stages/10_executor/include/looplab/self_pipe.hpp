// self_pipe.hpp: how another thread wakes a loop that sleeps in its selector.
//
// A loop waits in select() (or epoll_wait(), or io_uring_enter()) until a
// descriptor is ready or a timer is due. A callback that another thread
// hands it is neither, so the loop watches one descriptor of its own: the
// read end of a pipe whose write end any thread may write to. A byte written
// there makes the selector return, and the loop finds the callback waiting.
// asyncio does exactly this (selector_events.py, _make_self_pipe()), with a
// socket pair. Linux has a lighter object for the job, eventfd(2): one
// descriptor, an 8-byte counter, and any number of wake-ups read back at once.
// Both are here, because chapter 9 measures them against each other.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace looplab {

class SelfPipe {
 public:
  enum class Kind {
    kSocketPair,  // asyncio's: socket.socketpair(), one byte per wake-up
    kEventFd,     // Linux: one descriptor, a counter the kernel adds to
  };

  /// Opens both ends, non-blocking and close-on-exec. OSError if the
  /// process is out of descriptors.
  explicit SelfPipe(Kind kind);
  SelfPipe(const SelfPipe&) = delete;
  SelfPipe& operator=(const SelfPipe&) = delete;
  ~SelfPipe();

  /// The descriptor the loop's selector watches for reading.
  int read_fd() const noexcept { return read_fd_; }
  /// The end a signal handler writes to (the same descriptor for an eventfd).
  int write_fd() const noexcept { return write_fd_; }
  Kind kind() const noexcept { return kind_; }

  /// asyncio's _write_to_self(): any thread. A full pipe already holds a
  /// wake-up, so EAGAIN is ignored, as asyncio ignores it.
  void write_to_self() noexcept;
  /// asyncio's _read_from_self(): the loop's thread, once woken. Reads until
  /// nothing is left, so one read answers any number of writes.
  void read_from_self() noexcept;

  /// How many writes reached the kernel (for the chapter's measurements).
  std::uint64_t writes() const noexcept { return writes_.load(std::memory_order_relaxed); }

 private:
  Kind kind_;
  int read_fd_ = -1;
  int write_fd_ = -1;                     // the same as read_fd_ for an eventfd
  std::atomic<std::uint64_t> writes_{0};  // next to a system call, an atomic add is free
};

/// The kind a new loop uses: LOOPLAB_SELF_PIPE=socketpair|eventfd if set
/// (ValueError for anything else), else eventfd on Linux.
SelfPipe::Kind default_self_pipe_kind();
/// "socketpair" or "eventfd".
std::string_view name_of(SelfPipe::Kind kind) noexcept;

}  // namespace looplab
