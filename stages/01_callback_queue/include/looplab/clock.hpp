// clock.hpp: where the loop reads the time.
//
// asyncio's loop.time() is time.monotonic(). The loop reads time through this
// interface instead of calling the steady clock directly, so that tests can
// hand it a clock they move by hand and never wait for real time to pass.
// Stage 01 only reads it in debug mode, to find slow callbacks.
//
// [clock]
#pragma once

#include <chrono>

namespace looplab {

class Clock {
 public:
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<std::chrono::steady_clock, duration>;

  virtual ~Clock() = default;
  virtual time_point now() = 0;
};

/// The real monotonic clock (CLOCK_MONOTONIC), what asyncio uses.
class SteadyClock final : public Clock {
 public:
  time_point now() override { return std::chrono::steady_clock::now(); }
};

/// A clock that moves only when told to: tests and demos use it so that
/// nothing depends on how fast the machine is. "This callback took 150 ms"
/// is `clock.advance(150ms)` inside the callback.
class VirtualClock final : public Clock {
 public:
  time_point now() override { return now_; }
  void advance(duration by) { now_ += by; }

 private:
  time_point now_{};  // starts at zero, like a fresh monotonic clock
};
// [clock]

}  // namespace looplab
