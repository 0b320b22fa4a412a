// queues.hpp: Queue, asyncio's queue between coroutines (asyncio.queues),
// with CPython 3.13's shutdown().
//
// Extension lab 06 builds it over tasks (stages/06_tasks/assignment/lab/);
// from this stage on it is API, as CPython 3.13's Lib/asyncio/queues.py has
// it, rule for rule: the items in a deque, and two lines of futures, one per
// coroutine waiting, built the way Event and Lock are (locks.hpp).
//
//   co_await queue.put(item);          // await queue.put(item)
//   T item = co_await queue.get();     // item = await queue.get()
//   queue.task_done();                 // queue.task_done()
//   co_await queue.join();             // await queue.join()
//   queue.shutdown(true);              // queue.shutdown(immediate=True)
//
// The rules are asyncio's:
//
//   * put_nowait() appends the item and wakes the first getter still
//     waiting; get_nowait() takes the oldest item and wakes the first putter
//     still waiting. Waking (_wakeup_next) pops futures off the front of the
//     line until it finds one that is not done, and completes that one: one
//     wake-up per item or per slot, and a cancelled waiter is passed over;
//   * get() waits while the queue is empty, put() while it is full (only
//     with maxsize > 0). A woken waiter looks again when it resumes, a turn
//     later: if someone took the item (or the slot) meanwhile, it waits
//     again, at the back of the line;
//   * a wait that ends with an exception (the task cancelled, even after it
//     was woken) leaves the line; and if the waiter had been woken and what
//     it was woken for is still there (an item for a getter, room for a
//     putter), it wakes the next one: a cancelled task never keeps an item
//     or a slot from the others;
//   * each item put counts one unfinished task, each task_done() one less;
//     join() waits until none is left (asyncio's _finished, an Event).
//     task_done() with none left raises ValueError;
//   * shutdown() (3.13): from then on put() and put_nowait() raise
//     QueueShutDown; get() and get_nowait() still return the items left,
//     then raise QueueShutDown instead of waiting or raising QueueEmpty.
//     shutdown(true) also discards the items left, counting each as a task
//     done, which may release join(). Either way every blocked get() and
//     put() is woken, and raises QueueShutDown when it resumes.
//
// asyncio's LifoQueue and PriorityQueue are the same queue with another
// order of _put() and _get(): LifoQueue<T> gives the newest item first,
// PriorityQueue<T> the smallest (operator<), kept in a heap that follows
// Python's heapq step for step, so that equal items come out in the order
// asyncio's do (queue_items.hpp).
//
// Queue is a handle, as Future, Event and Lock are: copies share one queue,
// as Python names share one object, and a coroutine may take one by value
// (chapter 6, pitfall P4). A coroutine waiting in put(), get() or join()
// holds the queue. The queue belongs to the loop that first makes a
// coroutine wait in it (asyncio's _LoopBoundMixin, loop_bound.hpp): waiting
// in it from another loop is a RuntimeError. One loop, one thread.
//
// What differs from asyncio:
//   * repr() is Python's str(queue) without the items (`_queue=[...]`): C++
//     cannot print any T.
//   * A task destroyed while it waits (its loop closed) leaves the line and
//     wakes nobody: its frame is destroyed, and a destructor must not touch
//     a loop that is closing. asyncio would run the `except:` branch there.
#pragma once

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
#include "looplab/queue_items.hpp"

namespace looplab {

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

/// asyncio.QueueShutDown (3.13): a put on a queue that is shut down, or a
/// get on one that is shut down and empty.
class QueueShutDown : public std::runtime_error {
 public:
  QueueShutDown();
};

namespace detail {
/// What a Queue<T> holds that does not depend on T (src/queues.cpp), and
/// the loop it belongs to (LoopBound: get_loop()).
struct QueueCore : RefCounted, LoopBound<QueueCore> {
  QueueCore(int maxsize, const char* kind);

  int maxsize;                       // asyncio's _maxsize: <= 0 is no limit
  std::deque<Future<void>> getters;  // _getters: one future per get() waiting, oldest first
  std::deque<Future<void>> putters;  // _putters: one per put() waiting for room
  std::size_t unfinished_tasks = 0;  // _unfinished_tasks
  Event finished;                    // _finished: set while no task is unfinished
  bool is_shutdown = false;          // _is_shutdown
  const char* kind;                  // "Queue", "LifoQueue", "PriorityQueue": for repr()

  /// Python's str(queue) without `_queue=[...]`: "<Queue maxsize=1 _getters[2] tasks=3>".
  std::string repr() const;
  /// asyncio's _wakeup_next(): completes the first future of `waiters` that
  /// is not done, dropping it and every done one before it from the line.
  static void wakeup_next(std::deque<Future<void>>& waiters);
};
}  // namespace detail

/// asyncio.Queue: items of type T (moved in and out), first in, first out;
/// in another order with another `Items` (queue_items.hpp).
template <typename T, template <typename> class Items = OldestFirst>
class Queue {
  static_assert(std::is_move_constructible_v<T>, "Queue<T> moves its items in and out");

 public:
  /// A queue that holds at most `maxsize` items; 0 or less: no limit.
  explicit Queue(int maxsize = 0) : state_(new State(maxsize, Items<T>::kQueueName)) {}

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
  /// `T item = co_await queue.get()`: the next item (the oldest, in a
  /// Queue), at once (no turn) if
  /// there is one; otherwise waits for a put. Raises QueueShutDown if the
  /// queue is shut down and empty, or is shut down while this waits.
  /// Cancelling the task while it waits raises CancelledError here.
  Coro<T> get() const { return get_of(*this); }
  /// Takes the next item and wakes the first putter waiting. If the queue
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
    Items<T> items;  // asyncio's _queue, with its _put() and _get()
  };

  // The coroutines hold a copy of the handle, so the queue lives as long as
  // one of them waits in it.
  static Coro<void> put_of(Queue self, T item);
  static Coro<T> get_of(Queue self);
  static Coro<void> join_of(Queue self);

  Ref<State> state_;
};

/// asyncio.LifoQueue: the newest item first.
template <typename T>
using LifoQueue = Queue<T, NewestFirst>;

/// asyncio.PriorityQueue: the smallest item first (T's operator<), in
/// heapq's order; a std::pair or std::tuple (priority, item) as in Python.
template <typename T>
using PriorityQueue = Queue<T, SmallestFirst>;

// Queue.put() in Lib/asyncio/queues.py: wait while full, then put_nowait().
template <typename T, template <typename> class Items>
Coro<void> Queue<T, Items>::put_of(Queue self, T item) {
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
      if (!self.full() && !putter.cancelled()) State::wakeup_next(state.putters);
      throw;
    }
  }
  co_return self.put_nowait(std::move(item));
}

template <typename T, template <typename> class Items>
void Queue<T, Items>::put_nowait(T&& item) const {
  State& state = *state_;
  if (state.is_shutdown) throw QueueShutDown();
  if (full()) throw QueueFull();
  state.items.put(std::move(item));
  ++state.unfinished_tasks;
  state.finished.clear();
  State::wakeup_next(state.getters);
}

// [queue_get]
// Queue.get() in Lib/asyncio/queues.py (3.13): wait while empty, then
// get_nowait(). The ScopeExit is its `self._getters.remove(getter)`, done
// however the wait ends; the catch is its `except:`.
template <typename T, template <typename> class Items>
Coro<T> Queue<T, Items>::get_of(Queue self) {
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
      if (!self.empty() && !getter.cancelled()) State::wakeup_next(state.getters);
      throw;
    }
  }
  co_return self.get_nowait();
}
// [queue_get]

template <typename T, template <typename> class Items>
T Queue<T, Items>::get_nowait() const {
  State& state = *state_;
  if (state.items.empty()) {
    if (state.is_shutdown) throw QueueShutDown();
    throw QueueEmpty();
  }
  T item = state.items.get();
  State::wakeup_next(state.putters);
  return item;
}

template <typename T, template <typename> class Items>
void Queue<T, Items>::task_done() const {
  State& state = *state_;
  if (state.unfinished_tasks == 0) throw ValueError("task_done() called too many times");
  if (--state.unfinished_tasks == 0) state.finished.set();
}

template <typename T, template <typename> class Items>
Coro<void> Queue<T, Items>::join_of(Queue self) {
  if (self.state_->unfinished_tasks > 0) co_await self.state_->finished.wait();
}

// [queue_shutdown]
// Queue.shutdown(), new in 3.13.
template <typename T, template <typename> class Items>
void Queue<T, Items>::shutdown(bool immediate) const {
  State& state = *state_;
  state.is_shutdown = true;
  if (immediate) {
    while (!state.items.empty()) {
      (void)state.items.get();
      if (state.unfinished_tasks > 0) --state.unfinished_tasks;
    }
    if (state.unfinished_tasks == 0) state.finished.set();  // releases join()
  }
  // Every blocked get() and put() looks again, and finds the queue shut down.
  for (std::deque<Future<void>>* line : {&state.getters, &state.putters}) {
    while (!line->empty()) {
      Future<void> waiter = std::move(line->front());
      line->pop_front();
      if (!waiter.done()) waiter.set_result();
    }
  }
}
// [queue_shutdown]

}  // namespace looplab
