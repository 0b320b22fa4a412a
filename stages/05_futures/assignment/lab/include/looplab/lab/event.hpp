// event.hpp: extension lab 05, asyncio.Event over futures.
//
// An Event is a flag that tasks wait for: wait() blocks until someone calls
// set(), and returns at once while the flag is set. asyncio builds it from
// the piece chapter 5 just built: each wait() that has to wait makes a
// Future and puts it in a queue; set() completes every future in the queue.
// This lab does the same, without coroutines (chapter 6 brings them):
// wait() returns the future itself, and the caller adds a done callback
// where asyncio's coroutine would write `await event.wait()`.
//
// What differs from asyncio, because stage 05 has no coroutines:
//   * `await event.wait()` on a set event returns at once, in the same step
//     of the task. Here wait() returns a future that is already done, and a
//     done callback added to it still runs one turn later (chapter 5: never
//     inline). Code that must act at once tests is_set() first.
//   * asyncio removes a waiter from its queue in the `finally:` of wait(),
//     when the waiting task resumes, one turn after its future completed.
//     Here the event's own done callback on the future does it, in the turn
//     where asyncio's task would resume; the event adds it before returning
//     the future, so it runs before any callback of the caller.
// Stage 06 carries this class as API, with wait() a coroutine
// (stages/06_tasks/include/looplab/locks.hpp).
#pragma once

#include <deque>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab::lab {

class Event {
 public:
  /// An event of `loop`, not set.
  explicit Event(EventLoop& loop);
  /// Forgets the waiters (see State). A future wait() returned and nobody
  /// completed stays pending: nothing can set this event any more.
  ~Event();
  Event(const Event&) = delete;  // the waiters' callbacks refer to this event's state
  Event& operator=(const Event&) = delete;

  /// Whether the flag is set.
  bool is_set() const noexcept;
  /// Sets the flag. If it was not set, completes every waiter that is not
  /// done yet with True, in the order they started waiting; a waiter that
  /// was cancelled stays cancelled. If it was set already, does nothing.
  void set();
  /// Clears the flag: the next wait() waits again. A waiter that set()
  /// already completed stays completed.
  void clear() noexcept;
  /// While the flag is set: a future that is already done, with True.
  /// Otherwise a pending future that the next set() completes with True;
  /// cancel it to stop waiting. Either way the event has added its own done
  /// callback to it, which takes it out of the queue once it is done.
  Future<bool> wait();

  /// Like the end of Python's repr(event): "<Event [unset, waiters:2]>"
  /// ("waiters" only when some future is in the queue).
  std::string repr() const;

 private:
  // What the event's done callbacks hold. A callback queued on the loop may
  // run after the Event is gone, so the state is reference-counted; and while
  // a waiter is pending, the state holds it and its callback holds the state:
  // ~Event() empties the queue to break that cycle.
  struct State : RefCounted {
    explicit State(EventLoop& loop) : loop(&loop) {}
    EventLoop* loop;
    bool value = false;
    std::deque<Future<bool>> waiters;  // asyncio's _waiters, oldest first
  };
  /// The event's done callback on each waiter (asyncio's `finally:
  /// self._waiters.remove(fut)`).
  static void forget_waiter(State& state, const Future<bool>& waiter);

  Ref<State> state_;
};

}  // namespace looplab::lab
