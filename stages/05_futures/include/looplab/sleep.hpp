// sleep.hpp: sleep(loop, delay), a Future that completes after `delay`.
//
// asyncio.sleep() is a coroutine: it makes a future, asks call_later() to
// complete it, waits for it, and cancels the timer if the wait is
// cancelled. Before coroutines (chapter 6) the same thing is a function that
// returns the future: whoever is done waiting cancels it, and the timer goes
// with it.
#pragma once

#include <chrono>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"

namespace looplab {

// [sleep]
/// The future behind sleep(): it owns its timer, so cancelling the future
/// (or dropping it) cancels the timer too.
class SleepState final : public FutureState<void> {
 public:
  using FutureState<void>::FutureState;
  ~SleepState() override { cancel_timer(); }

  bool cancel(std::string message = {}) override {
    cancel_timer();  // the heap drops it lazily, as asyncio's does
    return FutureState<void>::cancel(std::move(message));
  }
  void set_timer(TimerHandle timer) { timer_ = std::move(timer); }

 private:
  // No timer yet when call_later() refused the delay or the closed loop.
  void cancel_timer() noexcept {
    if (timer_) timer_.cancel();
  }
  TimerHandle timer_;
};

/// A future of `loop` that completes (with no value) once `delay` has passed.
/// A zero or negative delay completes it in the next turn.
template <typename Rep, typename Period>
Future<void> sleep(EventLoop& loop, std::chrono::duration<Rep, Period> delay) {
  Ref<SleepState> state(new SleepState(loop));
  // A plain pointer: the timer cannot outlive the future, which cancels it.
  SleepState* future = state.get();
  state->set_timer(loop.call_later(delay, [future] {
    if (!future->done()) future->set_result();
  }));
  return Future<void>(std::move(state));
}
// [sleep]

}  // namespace looplab
