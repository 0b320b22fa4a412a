// manual_clock.hpp: a Clock that moves only when a test moves it.
//
// Tests never wait for real time. A test that needs "this callback took
// 150 ms" advances the clock by 150 ms inside the callback instead.
#pragma once

#include "looplab/clock.hpp"

namespace looplab::testing {

class ManualClock final : public Clock {
 public:
  time_point now() override { return now_; }
  void advance(duration by) { now_ += by; }

 private:
  time_point now_{};  // starts at zero, like a fresh monotonic clock
};

}  // namespace looplab::testing
