// locks.hpp: Event and Lock, asyncio's synchronisation primitives (asyncio.locks).
//
// Extension lab 05 builds both over futures, with callbacks where asyncio
// awaits (stages/05_futures/assignment/lab/). With tasks they are what
// CPython 3.13's Lib/asyncio/locks.py has, line for line: a flag or a lock
// bit, and a queue of futures, one per coroutine waiting.
//
//   co_await event.wait();            // await event.wait()
//   co_await lock.acquire();          // await lock.acquire()
//   lock.release();                   // lock.release()
//   LockGuard held = co_await lock.guard();   // async with lock:
//
// The rules are asyncio's. A waiter leaves the queue when its coroutine
// resumes (asyncio's `finally:`), also when its frame is destroyed. A lock
// is taken at once only if it is free and every queued waiter is cancelled;
// release() wakes the first waiter, which claims the lock when it resumes,
// one turn later; until then it keeps its place against a newcomer. A
// waiter cancelled before it claims the lock, even after release() woke it,
// wakes the next waiter if the lock is free: a cancelled task never keeps
// the lock from the others.
//
// Event and Lock are handles, as Future is: copies share one event or lock,
// as Python names share one object, and a coroutine may take one by value
// (chapter 6, pitfall P4). A waiting coroutine holds what it waits in, so a
// task may go on waiting after every other handle is gone, as in asyncio.
// Each belongs to the loop that first makes it wait (asyncio's
// _LoopBoundMixin, loop_bound.hpp): waiting in it from another loop is a
// RuntimeError. One loop, one thread, like the futures it is made of.
//
// asyncio.locks has three more, built the same way: Semaphore and
// BoundedSemaphore (semaphore.hpp), and Condition (condition.hpp).
#pragma once

#include <deque>
#include <string>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/future.hpp"
#include "looplab/loop_bound.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab {

namespace detail {
/// What Event and Lock share: the queue of waiters, oldest first. Each
/// state adds its flag and the loop it belongs to (LoopBound).
struct WaiterQueue : RefCounted {
  std::deque<Future<bool>> waiters;

  /// Python's repr() without the address: "<Lock [locked, waiters:1]>".
  std::string repr_as(const char* kind, const char* state) const;
};
}  // namespace detail

/// asyncio.Event: a flag that coroutines wait for.
class Event {
 public:
  /// An event, not set, bound to no loop yet.
  Event();

  bool is_set() const noexcept { return state_->value; }
  /// Sets the flag and wakes every coroutine waiting, in the order they began
  /// to wait. Later wait()s return at once, until clear(). Nothing if set.
  void set() const;
  /// Clears the flag: wait() waits again. Coroutines set() woke stay woken.
  void clear() const noexcept { state_->value = false; }
  /// `co_await event.wait()`: true at once (no turn) if the flag is set;
  /// otherwise waits until set() (the task resumes a turn later), then true.
  /// Cancelling the task while it waits raises CancelledError here.
  Coro<bool> wait() const { return wait_in(state_); }

  /// Like the end of Python's repr(event): "<Event [unset, waiters:2]>".
  std::string repr() const;

 private:
  struct State : detail::WaiterQueue, detail::LoopBound<State> {
    bool value = false;
    std::string repr() const { return repr_as("Event", value ? "set" : "unset"); }
  };
  static Coro<bool> wait_in(Ref<State> state);  // holds the state while it waits
  Ref<State> state_;
};

class Lock;
template <typename Primitive>
class Guard;
/// `LockGuard held = co_await lock.guard();` is `async with lock:`.
using LockGuard = Guard<Lock>;

/// asyncio.Lock: one holder at a time, waiters served first in, first out.
/// A lock is not owned by a task: any code may release it.
class Lock {
 public:
  /// A lock, not locked, bound to no loop yet.
  Lock();

  /// Whether the lock is held. False between a release() and the turn in
  /// which the woken waiter resumes and claims it.
  bool locked() const noexcept { return state_->locked; }
  /// `co_await lock.acquire()`: takes the lock at once (no turn) if it is
  /// free and every queued waiter is cancelled; otherwise waits in the queue
  /// until release() wakes this waiter, and takes it then. Returns true.
  /// Cancelling the task while it waits raises CancelledError here, and the
  /// lock goes to the next waiter.
  Coro<bool> acquire() const { return acquire_in(state_); }
  /// Unlocks the lock and wakes the first waiter. RuntimeError("Lock is not
  /// acquired.") if it is not locked.
  void release() const;
  /// `LockGuard held = co_await lock.guard();` is `async with lock:`: the
  /// lock is acquired, and released when `held` goes out of scope, however
  /// the block ends (a return, an exception, a cancellation).
  Coro<LockGuard> guard() const;

  /// Like the end of Python's repr(lock): "<Lock [locked, waiters:1]>".
  std::string repr() const;

 private:
  struct State : detail::WaiterQueue, detail::LoopBound<State> {
    bool locked = false;
    std::string repr() const { return repr_as("Lock", locked ? "locked" : "unlocked"); }
  };
  static Coro<bool> acquire_in(Ref<State> state);  // holds the state while it waits
  static Coro<LockGuard> guard_of(Lock lock);
  static void wake_up_first(State& state);
  friend Guard<Lock>;
  void release_unless_released() const {  // the guard's exit: nothing if unlocked
    if (locked()) release();
  }
  Ref<State> state_;
};

/// What `co_await lock.guard()` gives (`LockGuard`), and the same for a
/// Semaphore (semaphore.hpp): the primitive, held until the guard goes out
/// of scope (asyncio's `async with lock:`). C++ has no asynchronous
/// destructor, but release() never waits, so a plain destructor does the
/// __aexit__. One difference: asyncio's __aexit__ raises if the block
/// released the primitive itself (RuntimeError from a Lock, ValueError from
/// a BoundedSemaphore); a destructor cannot throw, so the guard then does
/// nothing. release() ends the hold early, as it would in Python.
template <typename Primitive>
class [[nodiscard]] Guard {
 public:
  Guard(Guard&& other) noexcept
      : held_(std::move(other.held_)), holds_(std::exchange(other.holds_, false)) {}
  Guard& operator=(Guard&&) = delete;
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
  ~Guard() {
    if (holds_) held_.release_unless_released();
  }

  /// Releases now; the guard then holds nothing. RuntimeError if it holds
  /// nothing already; otherwise whatever the primitive's release() raises.
  void release() {
    if (!holds_) throw RuntimeError("Guard::release(): the guard holds nothing");
    holds_ = false;
    held_.release();
  }

 private:
  friend Primitive;
  explicit Guard(Primitive held) noexcept : held_(std::move(held)) {}
  // A handle and a flag rather than an optional handle: g++ 12 at -O2 could
  // not tell that an empty optional in a coroutine frame is never read, and
  // warned (maybe-uninitialized).
  Primitive held_;
  bool holds_ = true;
};

}  // namespace looplab
