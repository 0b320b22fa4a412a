// queue.hpp: extension lab 06, asyncio.Queue with CPython 3.13's shutdown().
//
// A Queue hands items from producer coroutines to consumer coroutines, first
// in, first out. asyncio builds it the way it builds Event and Lock: the
// items in a deque, and two lines of futures, one per coroutine waiting:
// _getters wait for an item, _putters for room (only with maxsize > 0). The
// rules are CPython 3.13's (Lib/asyncio/queues.py), one by one:
//
//   * put_nowait() appends the item and wakes the first getter still
//     waiting; get_nowait() takes the oldest item and wakes the first putter
//     still waiting. Waking (_wakeup_next) pops futures off the front of the
//     line until it finds one that is not done, and completes that one: one
//     wake-up per item or per slot, and a cancelled waiter is passed over;
//   * get() waits while the queue is empty, put() while it is full. A woken
//     waiter looks again when it resumes, a turn later: if someone took the
//     item (or the slot) meanwhile, it waits again, at the back of the line;
//   * a wait that ends with an exception (the task cancelled, even after it
//     was woken) leaves the line; and if the waiter had been woken and what
//     it was woken for is still there (an item for a getter, room for a
//     putter), it wakes the next one: a cancelled task never keeps an item
//     or a slot from the others;
//   * each item put counts one unfinished task, each task_done() one less;
//     join() waits until none is left (asyncio's _finished, an Event).
//     task_done() with none left raises ValueError;
//   * shutdown(): from then on put() and put_nowait() raise QueueShutDown;
//     get() and get_nowait() still return the items left, then raise
//     QueueShutDown instead of waiting or raising QueueEmpty. shutdown(true)
//     also discards the items left, counting each as a task done, which may
//     release join(). Either way every blocked get() and put() is woken, and
//     raises QueueShutDown when it resumes.
//
// Queue is a handle, as Future, Event and Lock are: copies share one queue,
// as Python names share one object, and a coroutine may take one by value
// (chapter 6, pitfall P4). A coroutine waiting in put(), get() or join()
// holds the queue. The queue belongs to the loop that first makes a
// coroutine wait in it (asyncio's _LoopBoundMixin, looplab/loop_bound.hpp):
// waiting in it from another loop is a RuntimeError. One loop, one thread.
//
// What differs from asyncio:
//   * Python's str() of QueueEmpty, QueueFull and QueueShutDown is empty;
//     here what() says what happened ("the queue is empty").
//   * repr() is Python's str(queue) without the items (`_queue=[...]`): C++
//     cannot print any T.
//   * A task destroyed while it waits (its loop closed) leaves the line and
//     wakes nobody: its frame is destroyed, and a destructor must not touch
//     a loop that is closing. asyncio would run the `except:` branch there.
#pragma once

#include <coroutine>
#include <cstddef>
#include <deque>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/future.hpp"
#include "looplab/locks.hpp"
#include "looplab/loop_bound.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab::lab {

/// asyncio.QueueEmpty: get_nowait() on an empty queue.
class QueueEmpty : public std::runtime_error {
 public:
  QueueEmpty();
};

/// asyncio.QueueFull: put_nowait() on a full queue.
class QueueFull : public std::runtime_error {
 public:
  QueueFull();
};

/// asyncio.QueueShutDown: a put on a queue that is shut down, or a get on
/// one that is shut down and empty.
class QueueShutDown : public std::runtime_error {
 public:
  QueueShutDown();
};

namespace detail {
/// What a Queue<T> holds that does not depend on T (src/queue.cpp), and
/// the loop it belongs to: get_loop() binds the queue to the running loop
/// when a coroutine first waits in it ("<Queue maxsize=0> is bound to a
/// different event loop" from another).
struct QueueCore : RefCounted, looplab::detail::LoopBound<QueueCore> {
  explicit QueueCore(int maxsize);

  int maxsize;                       // asyncio's _maxsize: <= 0 is no limit
  std::deque<Future<void>> getters;  // _getters: one future per get() waiting, oldest first
  std::deque<Future<void>> putters;  // _putters: one per put() waiting for room
  std::size_t unfinished_tasks = 0;  // _unfinished_tasks
  Event finished;                    // _finished: set while no task is unfinished
  bool is_shutdown = false;          // _is_shutdown

  /// Python's str(queue) without `_queue=[...]`: "<Queue maxsize=1 _getters[2] tasks=3>".
  std::string repr() const;
};
}  // namespace detail

/// asyncio.Queue: items of type T (moved in and out), first in, first out.
template <typename T>
class Queue {
  static_assert(std::is_move_constructible_v<T>, "Queue<T> moves its items in and out");

 public:
  /// A queue that holds at most `maxsize` items; 0 or less: no limit.
  explicit Queue(int maxsize = 0) : state_(new State(maxsize)) {}

  /// How many items the queue holds.
  std::size_t qsize() const noexcept { return state_->items.size(); }
  int maxsize() const noexcept { return state_->maxsize; }
  bool empty() const noexcept { return state_->items.empty(); }
  /// Whether it holds maxsize items: never with maxsize <= 0.
  bool full() const noexcept {
    return state_->maxsize > 0 && qsize() >= static_cast<std::size_t>(state_->maxsize);
  }

  /// `co_await queue.put(item)`: puts the item at once (no turn) if there is
  /// room; otherwise waits for a get to make room, then puts it. Raises
  /// QueueShutDown if the queue is shut down, or is shut down while this
  /// waits (the item is dropped). Cancelling the task while it waits raises
  /// CancelledError here, and the item is not put.
  Coro<void> put(T item) const { return put_of(*this, std::move(item)); }
  /// Puts the item and wakes the first getter waiting. QueueShutDown if the
  /// queue is shut down, else QueueFull if it is full; either way nothing
  /// changes, and an item passed with std::move() is still the caller's (as
  /// the Python object is): it is moved in only once the queue takes it.
  void put_nowait(T&& item) const;
  void put_nowait(const T& item) const { put_nowait(T(item)); }
  /// `T item = co_await queue.get()`: the oldest item, at once (no turn) if
  /// there is one; otherwise waits for a put. Raises QueueShutDown if the
  /// queue is shut down and empty, or is shut down while this waits.
  /// Cancelling the task while it waits raises CancelledError here.
  Coro<T> get() const { return get_of(*this); }
  /// Takes the oldest item and wakes the first putter waiting. If the queue
  /// is empty: QueueShutDown if it is shut down, else QueueEmpty.
  T get_nowait() const;

  /// Says that the work on an item taken out is done: one unfinished task
  /// less; at none, join() returns. ValueError("task_done() called too many
  /// times") if none is unfinished, changing nothing.
  void task_done() const;
  /// `co_await queue.join()`: at once (no turn) if no task is unfinished;
  /// otherwise waits until task_done() (or shutdown(true)) leaves none.
  Coro<void> join() const { return join_of(*this); }
  /// Shuts the queue down (see the rules at the top): later puts raise
  /// QueueShutDown, gets too once the queue is empty. With `immediate`, the
  /// items left are discarded and each counts as a task done. Every blocked
  /// put() and get() is woken, and raises QueueShutDown when it resumes.
  void shutdown(bool immediate = false) const;
  bool is_shutdown() const noexcept { return state_->is_shutdown; }

  /// Like Python's str(queue), without the items: "<Queue maxsize=0 _getters[1]>".
  std::string repr() const { return state_->repr(); }

 private:
  struct State : detail::QueueCore {
    using QueueCore::QueueCore;
    std::deque<T> items;  // asyncio's _queue, oldest first
  };

  /// asyncio's _wakeup_next(): completes the first future of `waiters` that
  /// is not done, dropping it and every done one before it from the line.
  static void wakeup_next(std::deque<Future<void>>& waiters);
  // The coroutines hold a copy of the handle, so the queue lives as long as
  // one of them waits in it.
  static Coro<void> put_of(Queue self, T item);
  static Coro<T> get_of(Queue self);
  static Coro<void> join_of(Queue self);

  Ref<State> state_;
};

template <typename T>
void Queue<T>::wakeup_next(std::deque<Future<void>>& waiters) {
  // [queue_wakeup_next_body]
  while (!waiters.empty()) {
    Future<void> waiter = std::move(waiters.front());
    waiters.pop_front();
    // Done already: cancelled, and its task will find out when it resumes.
    if (!waiter.done()) {
      waiter.set_result();
      break;
    }
  }
  // [queue_wakeup_next_body]
}

// Queue.put() in Lib/asyncio/queues.py: wait while full, then put_nowait().
template <typename T>
Coro<void> Queue<T>::put_of(Queue self, T item) {
  // [queue_put_wait]
  State& state = *self.state_;
  while (self.full()) {
    if (state.is_shutdown) throw QueueShutDown();
    Future<void> putter = state.get_loop().create_future();
    state.putters.push_back(putter);
    try {
      // Out of the line however the wait ends, the frame destroyed included.
      ScopeExit leave([&state, &putter] { std::erase(state.putters, putter); });
      co_await putter;
    } catch (...) {
      putter.cancel();  // in case it is not done yet
      // Woken, then cancelled before it resumed: the room it was woken for
      // goes to the next putter.
      if (!self.full() && !putter.cancelled()) wakeup_next(state.putters);
      throw;
    }
  }
  // [queue_put_wait]
  co_return self.put_nowait(std::move(item));
}

template <typename T>
void Queue<T>::put_nowait(T&& item) const {
  // [queue_put_nowait_body]
  State& state = *state_;
  if (state.is_shutdown) throw QueueShutDown();
  if (full()) throw QueueFull();
  state.items.push_back(std::move(item));
  ++state.unfinished_tasks;
  state.finished.clear();
  wakeup_next(state.getters);
  // [queue_put_nowait_body]
}

// Queue.get(): wait while empty, then get_nowait().
template <typename T>
Coro<T> Queue<T>::get_of(Queue self) {
  // [queue_get_wait]
  State& state = *self.state_;
  while (self.empty()) {
    if (state.is_shutdown) throw QueueShutDown();
    Future<void> getter = state.get_loop().create_future();
    state.getters.push_back(getter);
    try {
      // Out of the line however the wait ends, the frame destroyed included.
      ScopeExit leave([&state, &getter] { std::erase(state.getters, getter); });
      co_await getter;
    } catch (...) {
      getter.cancel();  // in case it is not done yet
      // Woken, then cancelled before it resumed: the item it was woken for
      // goes to the next getter.
      if (!self.empty() && !getter.cancelled()) wakeup_next(state.getters);
      throw;
    }
  }
  // [queue_get_wait]
  co_return self.get_nowait();
}

template <typename T>
T Queue<T>::get_nowait() const {
  // [queue_get_nowait_body]
  State& state = *state_;
  if (state.items.empty()) {
    if (state.is_shutdown) throw QueueShutDown();
    throw QueueEmpty();
  }
  T item = std::move(state.items.front());
  state.items.pop_front();
  wakeup_next(state.putters);
  return item;
  // [queue_get_nowait_body]
}

template <typename T>
void Queue<T>::task_done() const {
  // [queue_task_done_body]
  State& state = *state_;
  if (state.unfinished_tasks == 0) throw ValueError("task_done() called too many times");
  if (--state.unfinished_tasks == 0) state.finished.set();
  // [queue_task_done_body]
}

template <typename T>
Coro<void> Queue<T>::join_of(Queue self) {
  // [queue_join_body]
  if (self.state_->unfinished_tasks > 0) co_await self.state_->finished.wait();
  // [queue_join_body]
}

template <typename T>
void Queue<T>::shutdown(bool immediate) const {
  // [queue_shutdown_body]
  State& state = *state_;
  state.is_shutdown = true;
  if (immediate) {
    while (!state.items.empty()) {
      state.items.pop_front();
      if (state.unfinished_tasks > 0) --state.unfinished_tasks;
    }
    if (state.unfinished_tasks == 0) state.finished.set();
  }
  // Every blocked get() and put() looks again, and finds the queue shut down.
  for (std::deque<Future<void>>* line : {&state.getters, &state.putters}) {
    while (!line->empty()) {
      Future<void> waiter = std::move(line->front());
      line->pop_front();
      if (!waiter.done()) waiter.set_result();
    }
  }
  // [queue_shutdown_body]
}

}  // namespace looplab::lab
