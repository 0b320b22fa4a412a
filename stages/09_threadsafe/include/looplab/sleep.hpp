// sleep.hpp: sleep(loop, delay), a Future done after `delay`; co_await sleep(delay).
//
// asyncio.sleep() is a coroutine: it makes a future, asks call_later() to
// complete it, waits for it, and cancels the timer if the wait is
// cancelled. Chapter 5's sleep(loop, delay) is a function that returns the
// future; inside a task, `co_await sleep(delay)` is asyncio's coroutine form
// (chapter 6), a bare yield for a delay of zero.
#pragma once

#include <chrono>
#include <optional>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/task.hpp"

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

// [sleep_await]
/// What `co_await sleep(delay)` waits on inside a task, made as
/// asyncio.sleep() makes it: a plain future, a timer that completes it unless
/// it was cancelled meanwhile, and, once the task resumes, the timer
/// cancelled (asyncio.sleep's `finally: h.cancel()`). So a cancelled sleep
/// leaves its timer in the heap until the task's wakeup, one turn later, as
/// asyncio's does: when timers are cancelled shapes the heap, and with it the
/// order of equal deadlines. For a delay of zero or less there is nothing at
/// all: the task yields and runs again in the next turn (asyncio's bare
/// `yield`, exactly one turn, no timer).
class SleepAwaiter {
 public:
  using task_aware = void;   // it registers the task's wakeup, or yields
  SleepAwaiter() = default;  // yield once
  SleepAwaiter(Future<void> future, TimerHandle timer)
      : future_(std::move(future)), timer_(std::move(timer)) {}
  SleepAwaiter(const SleepAwaiter&) = delete;
  SleepAwaiter& operator=(const SleepAwaiter&) = delete;
  // finally: h.cancel(). The awaiter lives until the co_await is over, also
  // when a cancellation is thrown there. (After the timer ran: nothing.)
  ~SleepAwaiter() {
    if (timer_) timer_.cancel();
  }

  bool await_ready() const noexcept { return future_ && future_->done(); }
  void await_suspend(std::coroutine_handle<> frame) const {
    if (future_) {
      detail::suspend_task_on(future_->state(), frame);
    } else if (TaskBase* task = TaskBase::current()) {
      task->yield(frame);
    } else {
      throw RuntimeError("co_await sleep() outside a task");
    }
  }
  void await_resume() const {
    if (future_) future_->result();
  }

 private:
  std::optional<Future<void>> future_;
  TimerHandle timer_;
};

/// asyncio.sleep(delay), inside a task: `co_await sleep(100ms)`. Unlike
/// asyncio's coroutine, the timer starts when sleep() is called, not when
/// it is awaited: an awaiter kept for later has been counting meanwhile.
template <typename Rep, typename Period>
SleepAwaiter sleep(std::chrono::duration<Rep, Period> delay) {
  if (delay <= delay.zero()) return SleepAwaiter();
  EventLoop& loop = get_running_loop();
  Future<void> future = loop.create_future<void>();
  // The timer holds the future, as asyncio's call_later(delay,
  // _set_result_unless_cancelled, future) does.
  TimerHandle timer = loop.call_later(delay, [future] {
    if (!future.cancelled()) future.set_result();
  });
  return SleepAwaiter(std::move(future), std::move(timer));
}
// [sleep_await]

/// asyncio.sleep(delay, result): `result` again, once `delay` has passed.
template <typename Rep, typename Period, typename T>
Coro<T> sleep(std::chrono::duration<Rep, Period> delay, T result) {
  co_await sleep(delay);
  co_return result;
}

}  // namespace looplab
