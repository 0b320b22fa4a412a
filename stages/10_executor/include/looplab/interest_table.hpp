// interest_table.hpp: which events each registered descriptor is watched for.
//
// Every selector keeps this table (Python's selectors keep a SelectorKey per
// descriptor). The kernel keeps its own copy for epoll, io_uring and kqueue;
// this one answers "is fd registered, and for what?" without a system call,
// and gives every backend the same errors for the same mistakes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "looplab/exceptions.hpp"

namespace looplab {

// [interest_table]
class InterestTable {
 public:
  /// Records a new registration. Throws ValueError for a negative descriptor
  /// or one that is already registered.
  void add(int fd, unsigned events) {
    check_new(fd);
    auto index = static_cast<std::size_t>(fd);
    if (index >= events_.size()) events_.resize(index + 1, 0);
    events_[index] = events;
    ++count_;
  }
  /// Throws what add() would, without adding: a backend calls it before
  /// asking the kernel, so that a mistake never reaches the kernel's set.
  void check_new(int fd) const {
    if (fd < 0) throw ValueError("Invalid file descriptor: " + std::to_string(fd));
    if (find(fd) != 0) {
      throw ValueError("file descriptor " + std::to_string(fd) + " is already registered");
    }
  }
  /// The events `fd` is registered for. Throws ValueError if it is not registered.
  unsigned& at(int fd) {
    if (find(fd) == 0) {
      throw ValueError("file descriptor " + std::to_string(fd) + " is not registered");
    }
    return events_[static_cast<std::size_t>(fd)];
  }
  /// The events `fd` is registered for; 0 if it is not.
  unsigned find(int fd) const noexcept {
    if (fd < 0 || static_cast<std::size_t>(fd) >= events_.size()) return 0;
    return events_[static_cast<std::size_t>(fd)];
  }
  /// Forgets `fd`; returns the events it was registered for. Throws
  /// ValueError if it is not registered (unregistering twice is a mistake).
  unsigned remove(int fd) {
    unsigned& events = at(fd);
    unsigned old = events;
    events = 0;
    --count_;
    return old;
  }
  std::size_t size() const noexcept { return count_; }

 private:
  std::vector<unsigned> events_;  // by descriptor; 0 = not registered
  std::size_t count_ = 0;
};
// [interest_table]

}  // namespace looplab
