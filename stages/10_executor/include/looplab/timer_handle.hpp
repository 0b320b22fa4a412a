// timer_handle.hpp: TimerHandle, a Handle with a deadline.
//
// asyncio.events.TimerHandle adds `when` (absolute loop time) and a
// `scheduled` flag (true while the timer sits in the loop's heap). Cancelling
// a scheduled timer does not take it out of the heap, which would cost a
// search: it marks the handle and counts it, and the loop drops cancelled
// timers later, cheaply, when they reach the top of the heap (or all at once
// when they become the majority). That is lazy cancellation.
#pragma once

#include <string>

#include "looplab/clock.hpp"
#include "looplab/handle.hpp"

namespace looplab {

class EventLoop;

// [timer_handle_state]
class TimerHandleState final : public HandleState {
 public:
  TimerHandleState(Clock::time_point when, Callback callback, Context context,
                   SourceLocation created_at)
      : HandleState(std::move(callback), std::move(context), created_at), when_(when) {}

  Clock::time_point when() const noexcept { return when_; }

  /// TimerHandle.cancel(): a timer still in the heap is counted by its loop.
  void cancel() noexcept override;

  /// "<TimerHandle when=1.5 created at demo.cpp:12>", when in seconds of
  /// loop time as Python prints a float; "<TimerHandle cancelled when=1.5>".
  std::string repr() const override;

  // The heap's bookkeeping (asyncio's `_scheduled`): the loop whose heap holds
  // this timer, or null once it left the heap (ran, was dropped, or the loop closed).
  void set_scheduled_in(EventLoop* loop) noexcept { scheduled_in_ = loop; }

 private:
  Clock::time_point when_;
  EventLoop* scheduled_in_ = nullptr;
};
// [timer_handle_state]

/// What call_later() and call_at() return.
class TimerHandle : public Handle {
 public:
  TimerHandle() = default;
  explicit TimerHandle(Ref<TimerHandleState> state) : Handle(Ref<HandleState>(std::move(state))) {}

  /// The absolute loop time at which the callback is due.
  Clock::time_point when() const noexcept {
    return static_cast<TimerHandleState*>(state())->when();
  }
};

}  // namespace looplab
