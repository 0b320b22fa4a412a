// condition.hpp: Condition, asyncio's condition variable (asyncio.locks):
// coroutines wait, holding a Lock, until another coroutine notifies them.
//
//   LockGuard held = co_await condition.guard();   // async with condition:
//   co_await condition.wait_for([&] { return ready; });
//   condition.notify();                            // condition.notify()
//
// The rules are CPython 3.13's (Lib/asyncio/locks.py):
//
//   * wait() needs the lock held (RuntimeError otherwise): it releases it,
//     waits in the queue until notify() wakes it, then acquires the lock
//     again before it returns true: a woken waiter resumes only when the
//     notifier has released the lock;
//   * the lock is acquired again however the wait ends, a cancellation
//     included; a cancellation while it is acquired again is remembered,
//     the lock acquired anyway, and the CancelledError raised after;
//   * a wait that ends with an exception notifies one other waiter, since
//     this one may have been notified already (a spurious wake-up, which a
//     condition variable allows: wait_for() checks again);
//   * notify(n) and notify_all() need the lock held, and wake the first n
//     (or all) waiters not yet woken, first in, first out.
//
// A handle, as Lock is: copies share one condition. Condition() makes its
// own Lock; Condition(lock) shares one.
//
// What differs from asyncio: a task destroyed while it waits (its loop
// closed) leaves the queue and does not take the lock again, since a frame
// being destroyed cannot await. asyncio's `finally:` takes it back when the
// task is garbage-collected, if it is free then.
#pragma once

#include <cstddef>
#include <deque>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/future.hpp"
#include "looplab/locks.hpp"
#include "looplab/loop_bound.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab {

/// asyncio.Condition: a Lock and a queue of coroutines waiting to be notified.
class Condition {
 public:
  /// A condition with a lock of its own.
  Condition() : Condition(Lock()) {}
  /// A condition over `lock`, which others may also hold.
  explicit Condition(Lock lock);

  /// The lock's locked(), acquire(), release() and guard(), as asyncio
  /// exports them: `LockGuard held = co_await condition.guard();` is
  /// `async with condition:`.
  bool locked() const noexcept { return state_->lock.locked(); }
  Coro<bool> acquire() const { return state_->lock.acquire(); }
  void release() const { state_->lock.release(); }
  Coro<LockGuard> guard() const { return state_->lock.guard(); }

  /// `co_await condition.wait()`: releases the lock, waits until notified,
  /// acquires the lock again, returns true. RuntimeError("cannot wait on
  /// un-acquired lock") if the lock is not held.
  Coro<bool> wait() const { return wait_in(state_); }
  /// `co_await condition.wait_for(predicate)`: wait() until predicate() is
  /// true (checked first, and after each wake-up); returns its last value.
  template <typename Predicate>
  Coro<std::invoke_result_t<Predicate&>> wait_for(Predicate predicate) const {
    return wait_for_in(*this, std::move(predicate));
  }
  /// Wakes the first `n` waiters not yet woken; signed, as Python's int:
  /// n <= 0 wakes nobody. RuntimeError("cannot notify on un-acquired lock")
  /// if the lock is not held.
  void notify(std::ptrdiff_t n = 1) const;
  /// Wakes every waiter (notify(number of waiters)).
  void notify_all() const { notify(std::ssize(state_->waiters)); }

  /// Like the end of Python's repr(): "<Condition [locked, waiters:2]>".
  std::string repr() const { return state_->repr(); }

 private:
  struct State : detail::WaiterQueue, detail::LoopBound<State> {
    explicit State(Lock held_by) : lock(std::move(held_by)) {}
    Lock lock;
    std::string repr() const { return repr_as("Condition", lock.locked() ? "locked" : "unlocked"); }
  };
  static Coro<bool> wait_in(Ref<State> state);  // holds the state while it waits
  static void notify_first(State& state, std::ptrdiff_t n);

  template <typename Predicate>
  static Coro<std::invoke_result_t<Predicate&>> wait_for_in(Condition condition,
                                                            Predicate predicate) {
    auto result = predicate();
    while (!result) {
      co_await condition.wait();
      result = predicate();
    }
    co_return result;
  }

  Ref<State> state_;
};

}  // namespace looplab
