// lock.hpp: extension lab 05, asyncio.Lock over futures.
//
// A Lock lets one holder at a time into a critical section that spans
// turns of the loop. asyncio builds it from futures: acquire() on a free
// lock takes it at once; on a held one it queues a Future and waits for
// release() to complete the first future in the queue. The rules below are
// CPython 3.13's (Lib/asyncio/locks.py), one by one:
//
//   * fast path: acquire() takes the lock at once only if it is not locked
//     and every waiter in the queue (if any) is cancelled;
//   * waiters are served first in, first out: release() completes the
//     future of the first waiter, and only that one;
//   * release() leaves the lock unlocked: the woken waiter claims it when it
//     runs, a turn later. Meanwhile it is still in the queue and not
//     cancelled, so a newcomer's acquire() cannot take the fast path and
//     waits behind it, although locked() says False;
//   * a waiter cancelled while it waits leaves the queue when its
//     cancellation is delivered, a turn later, and then, if the lock is not
//     locked, wakes the next waiter (asyncio's _wake_up_first() in the
//     CancelledError branch of acquire()): a cancelled waiter never keeps
//     the lock from the others;
//   * release() of a lock that is not locked raises
//     RuntimeError("Lock is not acquired.").
//
// Without coroutines, acquire() returns the waiter's future and the caller
// adds a done callback where asyncio would `await lock.acquire()`. asyncio
// sets _locked = True after the `await`, when the woken task resumes. Here
// the lock adds its own done callback to each waiter's future before
// returning it, and that callback does what the code after asyncio's
// `await` does: it takes the future out of the queue, then claims the lock,
// or, for a cancelled waiter, wakes the next one if the lock is free. Being
// first, it runs before any callback of the caller, in the turn where
// asyncio's task would resume: the caller's callback finds the lock held.
//
// What differs from asyncio, because stage 05 has no coroutines:
//   * `await lock.acquire()` on a free lock returns at once, in the same
//     step of the task. Here acquire() returns a future that is already
//     done (the lock is held as it returns), and a done callback added to it
//     still runs one turn later (chapter 5: never inline).
//   * A waiter that release() woke can no longer give up: its future is
//     done, so cancel() returns false and the lock is claimed for it, which
//     must then release it. In asyncio, the task of that waiter may still be
//     cancelled before it resumes; it then passes the lock on. Stage 06's
//     Lock, with tasks, does exactly that (stages/06_tasks/include/looplab/
//     locks.hpp carries this class as API, with acquire() a coroutine).
//   * The future belongs to the lock: cancelling it is the one thing its
//     holder may do. A result or an exception set from outside would be
//     taken as a wake-up (asyncio's future is never seen outside acquire()).
#pragma once

#include <deque>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab::lab {

class Lock {
 public:
  /// A lock of `loop`, not locked.
  explicit Lock(EventLoop& loop);
  /// Forgets the waiters (see State): a future acquire() returned and release()
  /// did not complete stays pending, since nothing can release this lock any more.
  ~Lock();
  Lock(const Lock&) = delete;  // the waiters' callbacks refer to this lock's state
  Lock& operator=(const Lock&) = delete;

  /// Whether the lock is held (asyncio's locked()). False between a release()
  /// and the turn in which the woken waiter claims it.
  bool locked() const noexcept;
  /// Takes the lock at once if it is free and no waiter that is not cancelled
  /// is queued: returns a future already done with True, and the lock is held.
  /// Otherwise queues a pending future, returned, that release() completes
  /// with True when its turn comes; the lock's own done callback on it
  /// claims the lock before the caller's callbacks run. Cancel the future to
  /// stop waiting.
  Future<bool> acquire();
  /// Unlocks the lock and wakes the first waiter, if there is one and its
  /// future is not done yet. RuntimeError("Lock is not acquired.") if the lock
  /// is not locked, changing nothing.
  void release();

  /// Like the end of Python's repr(lock): "<Lock [locked, waiters:1]>"
  /// ("waiters" only when some future is in the queue).
  std::string repr() const;

 private:
  // What the lock's done callbacks hold. A callback queued on the loop may
  // run after the Lock is gone, so the state is reference-counted; and while
  // a waiter is pending, the state holds it and its callback holds the state:
  // ~Lock() empties the queue to break that cycle.
  struct State : RefCounted {
    explicit State(EventLoop& loop) : loop(&loop) {}
    EventLoop* loop;
    bool locked = false;
    std::deque<Future<bool>> waiters;  // asyncio's _waiters, oldest first
  };
  /// Completes the future of the first waiter with True, unless it is done
  /// already (woken and not yet run, or cancelled): asyncio's _wake_up_first().
  static void wake_up_first(State& state);
  /// The lock's done callback on each waiter: what asyncio's acquire() does
  /// after its `await fut`. Takes the waiter out of the queue; then, if it
  /// was cancelled, wakes the next waiter unless the lock is locked;
  /// otherwise claims the lock.
  static void waiter_done(State& state, const Future<bool>& waiter);

  Ref<State> state_;
};

}  // namespace looplab::lab
