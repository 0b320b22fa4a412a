// semaphore.hpp: Semaphore and BoundedSemaphore, asyncio's counters of free
// places (asyncio.locks), built the way Lock is (locks.hpp).
//
//   Semaphore places(3);                         // asyncio.Semaphore(3)
//   co_await places.acquire();                   // await places.acquire()
//   places.release();                            // places.release()
//   SemaphoreGuard held = co_await places.guard();   // async with places:
//
// The rules are CPython 3.13's (Lib/asyncio/locks.py):
//
//   * acquire() takes a place at once (no turn) unless locked(): the value
//     is 0, or a waiter not cancelled is queued (first in, first out: a
//     newcomer does not overtake a waiter, even when places are free);
//   * release() gives a place back and hands it to the first waiter not yet
//     woken: the place is counted as taken when the waiter is woken, and
//     the waiter resumes a turn later;
//   * a waiter woken and cancelled before it resumes gives its place back;
//     and every waiter that leaves the queue wakes as many others as there
//     are free places, so a cancellation never strands a place;
//   * BoundedSemaphore's release() raises ValueError("BoundedSemaphore
//     released too many times") rather than go above its initial value.
//
// Handles, as Lock is: copies share one semaphore. It belongs to the loop
// that first makes a coroutine wait in it (loop_bound.hpp).
#pragma once

#include <optional>
#include <string>

#include "looplab/coro.hpp"
#include "looplab/locks.hpp"
#include "looplab/loop_bound.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab {

class Semaphore;
/// `SemaphoreGuard held = co_await places.guard();` is `async with places:`.
using SemaphoreGuard = Guard<Semaphore>;

/// asyncio.Semaphore: `value` places, waiters served first in, first out.
class Semaphore {
 public:
  /// A semaphore with `value` free places (default 1), bound to no loop yet.
  /// ValueError("Semaphore initial value must be >= 0") if value < 0.
  explicit Semaphore(int value = 1);

  /// Whether acquire() would wait: no place is free, or a waiter that is not
  /// cancelled is queued.
  bool locked() const noexcept;
  /// `co_await places.acquire()`: takes a place at once (no turn) unless
  /// locked(); otherwise waits in the queue until release() wakes this
  /// waiter. Returns true. Cancelling the task while it waits raises
  /// CancelledError here, and a place it was given goes to the next waiter.
  Coro<bool> acquire() const { return acquire_in(state_); }
  /// Gives a place back and wakes the first waiter not yet woken.
  /// BoundedSemaphore: ValueError if every place is already free.
  void release() const;
  /// `SemaphoreGuard held = co_await places.guard();` is `async with
  /// places:`: a place is acquired, and released when `held` goes out of scope.
  Coro<SemaphoreGuard> guard() const;

  /// Like the end of Python's repr(): "<Semaphore [unlocked, value:2]>",
  /// "<BoundedSemaphore [locked, waiters:1]>".
  std::string repr() const;

 protected:
  Semaphore(int value, std::optional<int> bound);

 private:
  struct State : detail::WaiterQueue, detail::LoopBound<State> {
    int value = 0;
    std::optional<int> bound;  // BoundedSemaphore's initial value
    bool locked() const noexcept;
    std::string repr() const;
  };
  static Coro<bool> acquire_in(Ref<State> state);  // holds the state while it waits
  static Coro<SemaphoreGuard> guard_of(Semaphore semaphore);
  static bool wake_up_next(State& state);
  static void wake_up_while_free(State& state);
  friend Guard<Semaphore>;
  void release_unless_released() const;  // the guard's exit
  Ref<State> state_;
};

/// asyncio.BoundedSemaphore: a Semaphore whose release() raises ValueError
/// rather than go above its initial value. Passes wherever a Semaphore does.
class BoundedSemaphore : public Semaphore {
 public:
  explicit BoundedSemaphore(int value = 1) : Semaphore(value, value) {}
};

}  // namespace looplab
