// clock.hpp: where the loop reads the time.
//
// asyncio's loop.time() is time.monotonic(). The loop reads time through this
// interface instead of calling the steady clock directly, so that tests can
// hand it a clock they move by hand and never wait for real time to pass.
// Stage 02's loop slept through the clock. From stage 03 on the loop waits in
// the selector instead, for I/O or the next deadline, whichever comes first.
// A virtual clock cannot make select() return early, so with one (is_virtual()
// tells which) the loop's selector polls without waiting and, if nothing
// happened, jumps the clock to the deadline (virtual_time_selector.hpp).
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
  /// Returns once now() >= deadline: the one place a stage-02 loop waits.
  virtual void sleep_until(time_point deadline) = 0;
  /// The smallest step the clock can take (asyncio's _clock_resolution).
  virtual duration resolution() const = 0;
  /// True for a clock whose time does not pass by itself (tests, demos).
  virtual bool is_virtual() const noexcept { return false; }
};

/// The real monotonic clock (CLOCK_MONOTONIC), what asyncio uses.
class SteadyClock final : public Clock {
 public:
  time_point now() override { return std::chrono::steady_clock::now(); }
  void sleep_until(time_point deadline) override;  // clock_nanosleep, absolute, EINTR retried
  duration resolution() const override;            // clock_getres(CLOCK_MONOTONIC)
};

/// A clock that moves only when told to: tests and demos use it so that
/// nothing depends on how fast the machine is. "This callback took 150 ms"
/// is `clock.advance(150ms)` inside the callback.
class VirtualClock final : public Clock {
 public:
  time_point now() override { return now_; }
  void advance(duration by) { now_ += by; }
  /// Autojump: when the loop would sleep, time moves to the deadline at once.
  void sleep_until(time_point deadline) override {
    if (deadline > now_) now_ = deadline;
  }
  duration resolution() const override { return duration{1}; }
  bool is_virtual() const noexcept override { return true; }

 private:
  time_point now_{};  // starts at zero, like a fresh monotonic clock
};
// [clock]

}  // namespace looplab
