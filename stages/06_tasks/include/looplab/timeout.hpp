// timeout.hpp: timeout() and wait_for(), asyncio's deadlines for awaiting.
//
// asyncio.timeout(delay) is an `async with` block: when the delay passes,
// the task running the block is cancelled, and the CancelledError coming
// out of the block becomes a TimeoutError. C++ has no async with, so the
// block is a coroutine: `co_await timeout(2s, fetch())`. The rules are
// asyncio's: only the cancellation this timeout caused is turned into a
// TimeoutError (cancelling() tells: the task's count of requests is
// compared with the count on entry); a cancellation from outside passes
// through; a body that catches the cancellation and returns, returns.
#pragma once

#include <chrono>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/scope_exit.hpp"
#include "looplab/task.hpp"

namespace looplab {

// [timeout]
/// asyncio.timeout(delay), around `body`: its result, or TimeoutError if
/// `delay` passed first (the body is cancelled, and finishes, first).
template <typename T, typename Rep, typename Period>
Coro<T> timeout(std::chrono::duration<Rep, Period> delay, Coro<T> body) {
  TaskBase* task = TaskBase::current();
  if (task == nullptr) throw RuntimeError("Timeout should be used inside a task");
  int cancelling_on_entry = task->cancelling();
  bool expiring = false;
  // The deadline cancels the task; it goes with this frame, however it ends.
  // A deadline already past is call_soon(), as in asyncio's reschedule(): it
  // runs in the next turn, ahead of the body's own step. Otherwise a timer.
  auto on_timeout = [task, &expiring] {
    task->as_future().cancel();
    expiring = true;
  };
  EventLoop& loop = task->get_loop();
  Handle timer = delay <= delay.zero() ? loop.call_soon(on_timeout)
                                       : Handle(loop.call_later(delay, on_timeout));
  ScopeExit cancel_timer([&timer] { timer.cancel(); });
  std::exception_ptr error;
  std::optional<std::conditional_t<std::is_void_v<T>, bool, T>> value;
  try {
    if constexpr (std::is_void_v<T>) {
      co_await std::move(body);
      value.emplace(true);
    } else {
      value.emplace(co_await std::move(body));
    }
  } catch (...) {
    error = std::current_exception();
  }
  timer.cancel();
  // Expired: take back our cancellation. If it was the only one (the count
  // is back where it was on entry), the CancelledError is ours: a timeout.
  // Another error passes through unchanged.
  if (expiring && task->uncancel() <= cancelling_on_entry && is_cancelled_error(error)) {
    throw TimeoutError();
  }
  if (error) std::rethrow_exception(error);
  if constexpr (!std::is_void_v<T>) co_return std::move(*value);
}

/// asyncio.wait_for(future, delay): its result, or TimeoutError after
/// cancelling it and waiting for it to finish. With a delay of zero or less
/// a future that is not done is cancelled at once.
template <typename T, typename Rep, typename Period>
Coro<T> wait_for(Future<T> future, std::chrono::duration<Rep, Period> delay) {
  if (delay <= delay.zero()) {
    // Done already: its outcome as it is (a CancelledError stays one).
    if (future.done()) co_return future.result();
    {
      // asyncio's _cancel_and_wait: cancel, then wait until it is done.
      Future<void> finished(future.get_loop());
      DoneCallbackId id = future.add_done_callback([finished](Future<T>&) {
        if (!finished.done()) finished.set_result();
      });
      future.cancel();
      co_await finished;
      future.remove_done_callback(id);
    }
    try {
      co_return future.result();
    } catch (const CancelledError&) {
      throw TimeoutError();
    }
  }
  auto await_it = [](Future<T> awaited) -> Coro<T> { co_return co_await awaited; };
  co_return co_await timeout(delay, await_it(std::move(future)));
}

/// asyncio.wait_for(coro, delay): runs `coro` under timeout(delay). With a
/// delay of zero or less it never starts: TimeoutError, once the task
/// asyncio makes of it has been cancelled and waited for (three turns).
template <typename T, typename Rep, typename Period>
Coro<T> wait_for(Coro<T> coro, std::chrono::duration<Rep, Period> delay) {
  if (delay <= delay.zero()) {
    // asyncio: ensure_future() makes it a task; cancelled before its first
    // step, its body never runs.
    Future<T> task = create_task(get_running_loop(), std::move(coro));
    co_return co_await wait_for(std::move(task), delay);
  }
  co_return co_await timeout(delay, std::move(coro));
}
// [timeout]

}  // namespace looplab
