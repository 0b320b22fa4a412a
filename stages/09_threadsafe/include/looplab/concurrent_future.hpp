// concurrent_future.hpp: concurrent::Future<T>, a result that any thread may
// wait for (Python's concurrent.futures.Future).
//
// A loop's Future<T> belongs to the loop's thread: its done callbacks are
// queued on the loop, and awaiting it suspends a task. A thread that is not
// the loop's has neither a loop nor tasks; it needs a future it can block
// on. That is this one: a mutex and a condition variable around the same
// states as concurrent/futures/_base.py's Future (pending, running,
// cancelled, finished), a blocking result(timeout), and done callbacks that
// run in whichever thread completes it. run_coroutine_threadsafe() returns
// one; wrap_future() turns one into a loop's Future (chain_future.hpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "looplab/exceptions.hpp"

namespace looplab::concurrent {

/// concurrent.futures.CancelledError: not asyncio's (a loop's future raises
/// that one); result() of a cancelled concurrent future raises this.
class CancelledError : public std::runtime_error {
 public:
  CancelledError() : std::runtime_error("") {}
};
/// concurrent.futures.InvalidStateError: set_result() on a finished future.
class InvalidStateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

// _base.py's states, with its names (InvalidStateError's message uses them).
enum class State { kPending, kRunning, kCancelled, kCancelledAndNotified, kFinished };
const char* state_name(State state) noexcept;
/// The state as repr() names it: "pending", "running", "cancelled", "finished".
const char* state_description(State state) noexcept;
// "exception calling callback for <Future ...>", as _base.py logs it.
void report_callback_error(const std::string& future_repr,
                           const std::exception_ptr& error) noexcept;
// "Future ... in unexpected state: FINISHED", as _base.py logs it before
// set_running_or_notify_cancel() raises.
void report_unexpected_state(const void* future, State state) noexcept;
/// The name of the exception's class, as Python's __class__.__name__.
std::string class_name_of(const std::exception_ptr& error);
/// The name of T's Python counterpart, for repr()'s "returned int".
template <typename T>
std::string python_class_name() {
  if constexpr (std::is_void_v<T>) {
    return "NoneType";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "bool";
  } else if constexpr (std::is_integral_v<T>) {
    return "int";
  } else if constexpr (std::is_floating_point_v<T>) {
    return "float";
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return "str";
  } else {
    return type_name(typeid(T));
  }
}

}  // namespace detail

// [concurrent_future]
template <typename T = void>
class Future {
 public:
  using Timeout = std::optional<std::chrono::nanoseconds>;
  using value_type = T;

  Future() : state_(std::make_shared<Shared>()) {}

  /// Cancels a pending future; false once it is running or finished. The
  /// done callbacks run now, in this thread.
  bool cancel() const {
    {
      std::lock_guard lock(state_->mutex);
      if (state_->state == State::kRunning || state_->state == State::kFinished) return false;
      if (is_cancelled(state_->state)) return true;
      state_->state = State::kCancelled;
      state_->changed.notify_all();
    }
    invoke_callbacks();
    return true;
  }
  bool cancelled() const { return is_cancelled(read_state()); }
  bool running() const { return read_state() == State::kRunning; }
  bool done() const {
    State state = read_state();
    return is_cancelled(state) || state == State::kFinished;
  }

  /// Blocks until it is done (or `timeout` passes: TimeoutError), then
  /// returns the value, rethrows the exception, or throws
  /// concurrent::CancelledError. Never call it without a timeout on the
  /// thread of the loop that is to complete it: that waits forever.
  decltype(auto) result(Timeout timeout = std::nullopt) const {
    std::unique_lock lock(state_->mutex);
    wait_until_done(lock, timeout);
    if (state_->error) std::rethrow_exception(state_->error);
    if constexpr (!std::is_void_v<T>) return static_cast<const T&>(*state_->value);
  }
  /// The same wait; the exception it finished with (null for a value).
  std::exception_ptr exception(Timeout timeout = std::nullopt) const {
    std::unique_lock lock(state_->mutex);
    wait_until_done(lock, timeout);
    return state_->error;
  }

  /// fn(future) once it is done: now, in this thread, if it is done
  /// already; else in the thread that completes (or cancels) it. An
  /// exception from fn is reported on standard error and goes no further.
  template <typename F>
  void add_done_callback(F&& fn) const {
    {
      std::lock_guard lock(state_->mutex);
      if (!is_cancelled(state_->state) && state_->state != State::kFinished) {
        state_->callbacks.emplace_back(std::forward<F>(fn));
        return;
      }
    }
    call(fn);
  }

  /// What an executor calls before it runs the work: true, and the future
  /// is running (cancel() now fails); false if it was cancelled, and the
  /// work must not run. RuntimeError in any other state.
  bool set_running_or_notify_cancel() const {
    std::lock_guard lock(state_->mutex);
    if (state_->state == State::kCancelled) {
      state_->state = State::kCancelledAndNotified;
      return false;
    }
    if (state_->state == State::kPending) {
      state_->state = State::kRunning;
      return true;
    }
    detail::report_unexpected_state(state_.get(), state_->state);
    throw RuntimeError("Future in unexpected state");
  }

  template <typename... Value>
  void set_result(Value&&... value) const {
    {
      std::lock_guard lock(state_->mutex);
      check_settable();
      if constexpr (!std::is_void_v<T>) state_->value.emplace(std::forward<Value>(value)...);
      finish();
    }
    invoke_callbacks();
  }
  void set_exception(const std::exception_ptr& error) const {
    {
      std::lock_guard lock(state_->mutex);
      check_settable();
      state_->error = error;
      finish();
    }
    invoke_callbacks();
  }

  /// "<Future at 0x... state=pending>"; finished, with what it ended with,
  /// as _base.py writes it: "state=finished returned int", "state=finished
  /// raised ValueError" (T's Python counterpart: int, float, str, bool,
  /// NoneType for void; else the C++ type's name).
  std::string repr() const {
    std::lock_guard lock(state_->mutex);
    return repr_in(state_->state);
  }
  friend bool operator==(const Future& a, const Future& b) noexcept { return a.state_ == b.state_; }

 private:
  using State = detail::State;
  using Callback = std::function<void(const Future&)>;
  struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    State state = State::kPending;
    std::optional<std::conditional_t<std::is_void_v<T>, bool, T>> value;
    std::exception_ptr error;
    std::vector<Callback> callbacks;
  };

  static bool is_cancelled(State state) noexcept {
    return state == State::kCancelled || state == State::kCancelledAndNotified;
  }
  State read_state() const {
    std::lock_guard lock(state_->mutex);
    return state_->state;
  }
  // With the lock held.
  std::string repr_in(State state) const {
    char address[32];
    std::snprintf(address, sizeof address, "%p", static_cast<const void*>(state_.get()));
    std::string text =
        std::string("<Future at ") + address + " state=" + detail::state_description(state);
    if (state == State::kFinished) {
      text += state_->error ? " raised " + detail::class_name_of(state_->error)
                            : " returned " + detail::python_class_name<T>();
    }
    return text + ">";
  }
  void wait_until_done(std::unique_lock<std::mutex>& lock, Timeout timeout) const {
    auto finished = [this] {
      return is_cancelled(state_->state) || state_->state == State::kFinished;
    };
    if (timeout) {
      state_->changed.wait_for(lock, *timeout, finished);
    } else {
      state_->changed.wait(lock, finished);
    }
    if (is_cancelled(state_->state)) throw CancelledError();
    if (state_->state != State::kFinished) throw TimeoutError();
  }
  void check_settable() const {
    State state = state_->state;
    if (is_cancelled(state) || state == State::kFinished) {
      throw InvalidStateError(std::string(detail::state_name(state)) + ": " + repr_in(state));
    }
  }
  void finish() const {
    state_->state = State::kFinished;
    state_->changed.notify_all();
  }
  // Outside the lock, in the completing thread: a callback may use the future.
  void invoke_callbacks() const {
    std::vector<Callback> callbacks;
    {
      std::lock_guard lock(state_->mutex);
      callbacks.swap(state_->callbacks);
    }
    for (Callback& fn : callbacks) call(fn);
  }
  template <typename F>
  void call(F& fn) const {
    try {
      fn(*this);
    } catch (...) {
      detail::report_callback_error(repr(), std::current_exception());
    }
  }

  std::shared_ptr<Shared> state_;
};
// [concurrent_future]

}  // namespace looplab::concurrent
