// clock.hpp: where the loop reads the time.
//
// asyncio's loop.time() is time.monotonic(). The loop reads time through this
// interface instead of calling the steady clock directly, so that tests can
// hand it a clock they move by hand and never wait for real time to pass.
// Stage 01 only reads it in debug mode, to find slow callbacks.
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

}  // namespace looplab
