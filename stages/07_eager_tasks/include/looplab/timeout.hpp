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

#include <array>
#include <chrono>
#include <concepts>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/reprlib.hpp"
#include "looplab/task.hpp"

namespace looplab {

// [timeout]
/// asyncio.Timeout: the deadline of one timeout() block, which the block's
/// body may read and move (the `cm` of `async with asyncio.timeout(d) as cm`).
class Timeout {
 public:
  explicit Timeout(std::optional<Clock::time_point> when) : when_(when) {}
  Timeout(const Timeout&) = delete;  // its deadline's callback points to it
  Timeout& operator=(const Timeout&) = delete;
  ~Timeout() {
    if (handler_) handler_.cancel();  // a block whose task was destroyed midway
  }

  /// The deadline, in loop time; nullopt for none.
  std::optional<Clock::time_point> when() const noexcept { return when_; }
  /// repr(timeout): "<Timeout [active] when=12.5>"; the deadline, in
  /// seconds rounded to 3 places, only while the block runs (timeouts.py).
  std::string repr() const {
    std::string text = std::string("<Timeout [") + state_name() + "]";
    if (state_ == State::kEntered) {
      text += " when=";
      text += when_ ? python_float_repr(rounded_to_milliseconds(seconds(*when_))) : "None";
    }
    return text + ">";
  }
  /// Whether the deadline passed and cancelled the block.
  bool expired() const noexcept { return state_ == State::kExpiring || state_ == State::kExpired; }
  /// Moves the deadline (nullopt: none). A deadline already past cancels at
  /// the next turn. RuntimeError outside the block, or once it expired.
  void reschedule(std::optional<Clock::time_point> when) {
    if (state_ != State::kEntered) {
      if (state_ == State::kCreated) throw RuntimeError("Timeout has not been entered");
      throw RuntimeError(std::string("Cannot change state of ") + state_name() + " Timeout");
    }
    when_ = when;
    if (handler_) handler_.cancel();
    handler_ = Handle();
    if (!when) return;
    EventLoop& loop = task_->get_loop();
    auto on_timeout = [this] {
      task_->as_future().cancel();  // asyncio's _on_timeout
      state_ = State::kExpiring;
      handler_ = Handle();
    };
    handler_ =
        *when <= loop.time() ? loop.call_soon(on_timeout) : Handle(loop.call_at(*when, on_timeout));
  }

  /// Entering the block (__aenter__): the running task, its cancelling()
  /// count, and the deadline armed.
  void enter() {
    if (state_ != State::kCreated) throw RuntimeError("Timeout has already been entered");
    task_ = TaskBase::current();
    if (task_ == nullptr) throw RuntimeError("Timeout should be used inside a task");
    cancelling_on_entry_ = task_->cancelling();
    state_ = State::kEntered;
    reschedule(when_);
  }
  /// Leaving it (__aexit__), with what the body threw (null if nothing):
  /// what the block throws. If the deadline fired, its cancellation is taken
  /// back; if it was the only one, the CancelledError is ours: a timeout.
  std::exception_ptr exit(std::exception_ptr error) {
    if (handler_) handler_.cancel();
    handler_ = Handle();
    if (state_ == State::kExpiring) {
      state_ = State::kExpired;
      if (task_->uncancel() <= cancelling_on_entry_ && is_cancelled_error(error)) {
        return std::make_exception_ptr(TimeoutError());
      }
    } else if (state_ == State::kEntered) {
      state_ = State::kExited;
    }
    return error;  // another error passes through unchanged
  }

 private:
  enum class State { kCreated, kEntered, kExpiring, kExpired, kExited };
  static double seconds(Clock::time_point when) {
    return std::chrono::duration<double>(when.time_since_epoch()).count();
  }
  // Python's round(x, 3): correctly rounded from x's exact binary value, as
  // printf's "%.3f" is (1.2345 is just below the tie: 1.234). Multiplying
  // by 1000 first would round that product instead.
  static double rounded_to_milliseconds(double seconds) {
    std::array<char, 64> text{};
    std::snprintf(text.data(), text.size(), "%.3f", seconds);
    return std::strtod(text.data(), nullptr);
  }
  const char* state_name() const noexcept {
    switch (state_) {
      case State::kCreated:
        return "created";
      case State::kEntered:
        return "active";
      case State::kExpiring:
        return "expiring";
      case State::kExpired:
        return "expired";
      case State::kExited:
        return "finished";
    }
    return "?";
  }

  std::optional<Clock::time_point> when_;
  State state_ = State::kCreated;
  TaskBase* task_ = nullptr;
  int cancelling_on_entry_ = 0;
  Handle handler_;
};

namespace detail {
// The block: enter, run the body inline, exit with whatever it threw.
template <typename T>
Coro<T> run_with(Timeout* cm, Coro<T> body) {
  cm->enter();
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
  if (std::exception_ptr thrown = cm->exit(std::move(error))) std::rethrow_exception(thrown);
  if constexpr (!std::is_void_v<T>) co_return std::move(*value);
}
}  // namespace detail

/// asyncio.timeout_at(when), around `body`: its result, or TimeoutError if
/// the loop's time reached `when` first (the body is cancelled, and
/// finishes, first). nullopt: no deadline, until the body reschedules one.
template <typename T>
Coro<T> timeout_at(std::optional<Clock::time_point> when, Coro<T> body) {
  Timeout cm(when);
  co_return co_await detail::run_with(&cm, std::move(body));
}

/// The deadline `delay` from now, on the running loop (asyncio.timeout's
/// `loop.time() + delay`), with call_later()'s checks of the delay.
template <typename Rep, typename Period>
Clock::time_point deadline_after(std::chrono::duration<Rep, Period> delay) {
  return get_running_loop().deadline_after(delay);
}

/// asyncio.timeout(delay), around `body`: the same, `delay` from now.
template <typename T, typename Rep, typename Period>
Coro<T> timeout(std::chrono::duration<Rep, Period> delay, Coro<T> body) {
  co_return co_await timeout_at(deadline_after(delay), std::move(body));
}

/// timeout(delay, fn, args...) and timeout_at(when, fn, args...): the body is
/// fn(cm, args...), which may read and move the deadline through `cm`
/// (`async with asyncio.timeout(d) as cm:`).
template <typename F, typename... Args>
requires std::invocable<F&, Timeout&, Args&...>
auto timeout_at(std::optional<Clock::time_point> when, F fn, Args... args)
    -> std::invoke_result_t<F&, Timeout&, Args&...> {
  Timeout cm(when);
  co_return co_await detail::run_with(&cm, fn(cm, args...));
}
template <typename Rep, typename Period, typename F, typename... Args>
requires std::invocable<F&, Timeout&, Args&...>
auto timeout(std::chrono::duration<Rep, Period> delay, F fn, Args... args)
    -> std::invoke_result_t<F&, Timeout&, Args&...> {
  co_return co_await timeout_at(deadline_after(delay), std::move(fn), std::move(args)...);
}
// [timeout]

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
      // asyncio's finally: also when the waiting task is cancelled.
      ScopeExit cleanup([&future, id] { future.remove_done_callback(id); });
      future.cancel();
      co_await finished;
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

/// asyncio.wait_for(aw, None): no deadline, so just the await, as
/// asyncio's `async with timeout(None): return await aw`. A coroutine runs
/// inline; it does not become a task.
template <typename T>
Coro<T> wait_for(Future<T> future, std::nullopt_t /*no_delay*/) {
  co_return co_await future;
}
template <typename T>
Coro<T> wait_for(Coro<T> coro, std::nullopt_t /*no_delay*/) {
  co_return co_await std::move(coro);
}

/// asyncio.wait_for(aw, delay) with a delay that may be None: a program's
/// `timeout: float | None`.
template <typename T, typename Rep, typename Period>
Coro<T> wait_for(Future<T> future, std::optional<std::chrono::duration<Rep, Period>> delay) {
  if (!delay) co_return co_await wait_for(std::move(future), std::nullopt);
  co_return co_await wait_for(std::move(future), *delay);
}
template <typename T, typename Rep, typename Period>
Coro<T> wait_for(Coro<T> coro, std::optional<std::chrono::duration<Rep, Period>> delay) {
  if (!delay) co_return co_await wait_for(std::move(coro), std::nullopt);
  co_return co_await wait_for(std::move(coro), *delay);
}

}  // namespace looplab
