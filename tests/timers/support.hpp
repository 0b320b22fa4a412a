// Helpers shared by the timer tests.
#pragma once

#include <chrono>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/test_loop.hpp"

namespace looplab::testing {

/// A VirtualClock that also records every sleep the loop asks for.
class RecordingClock final : public Clock {
 public:
  time_point now() override { return clock_.now(); }
  void sleep_until(time_point deadline) override {
    sleeps.push_back(deadline);
    clock_.sleep_until(deadline);
  }
  duration resolution() const override { return clock_.resolution(); }
#if LOOPLAB_STAGE >= 3
  bool is_virtual() const noexcept override { return true; }  // the loop polls, then jumps
#endif
  std::vector<time_point> sleeps;

 private:
  VirtualClock clock_;
};

}  // namespace looplab::testing
