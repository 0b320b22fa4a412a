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
  explicit Deadline(Selector::Timeout timeout) {
    if (timeout) end_ = std::chrono::steady_clock::now() + *timeout;
  }
  /// What is left of the wait: nullopt for "forever", never negative.
  Selector::Timeout remaining() const {
    if (!end_) return std::nullopt;
    return std::max(std::chrono::nanoseconds::zero(),
                    std::chrono::nanoseconds(*end_ - std::chrono::steady_clock::now()));
  }

 private:
  std::optional<std::chrono::steady_clock::time_point> end_;
};

}  // namespace looplab
