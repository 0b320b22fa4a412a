// deadline.hpp: the end of a selector's wait, so that a wait interrupted by
// a signal (EINTR) resumes for the time that is left, not for the whole
// timeout again.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>

#include "looplab/selector.hpp"

namespace looplab {

class Deadline {
 public:
  explicit Deadline(Selector::Timeout timeout)
      : forever_(!timeout),
        end_(timeout ? std::chrono::steady_clock::now() + *timeout
                     : std::chrono::steady_clock::time_point{}) {}
  /// What is left of the wait: nullopt for "forever", never negative.
  Selector::Timeout remaining() const {
    if (forever_) return std::nullopt;
    return std::max(std::chrono::nanoseconds::zero(),
                    std::chrono::nanoseconds(end_ - std::chrono::steady_clock::now()));
  }

 private:
  // A plain time point and a flag, not an optional time point: g++ 12 at
  // -O2 (the TSan build) wrongly warns that an engaged optional is read
  // uninitialized.
  bool forever_;
  std::chrono::steady_clock::time_point end_;
};

}  // namespace looplab
