// chain_future.hpp: a loop's futures and other threads' futures, tied
// together (asyncio's futures._chain_future, wrap_future() and
// tasks.run_coroutine_threadsafe()).
//
// Two kinds of future, two kinds of thread. A loop's Future<T> may only be
// touched on the loop's thread; a concurrent::Future<T> by any thread. A
// chain copies the outcome of one into the other when it is done, and
// passes a cancellation back the other way:
//
//   run_coroutine_threadsafe(coro, loop)   another thread starts a task on
//                                          the loop and gets a concurrent
//                                          future of its result
//   wrap_future(concurrent_future, loop)   a task awaits what another thread
//                                          computes
//
// The rules that keep it safe: a hop to the loop's side is always a post to
// the loop's thread-safe queue, which the chain shares, so that a post after
// the loop is gone is refused instead of touching freed memory. And code on
// another thread never holds the loop's future itself, only the number the
// loop keeps it under (EventLoop::keep()): the posted callback, on the
// loop's thread, looks it up.
#pragma once

#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "looplab/concurrent_future.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/task.hpp"

namespace looplab {

namespace detail {

// [copy_future_state]
/// asyncio's _copy_future_state: a concurrent future's outcome into a
/// loop's future, which a cancellation may have finished already.
template <typename T>
void copy_future_state(const concurrent::Future<T>& source, FutureState<T>& destination) {
  if (destination.done()) return;  // cancelled meanwhile
  if (source.cancelled()) {
    destination.cancel();
  } else if (std::exception_ptr error = source.exception()) {
    destination.set_exception(convert_future_exc(error));
  } else if constexpr (std::is_void_v<T>) {
    destination.set_result();
  } else {
    destination.set_result(source.result());
  }
}

/// asyncio's _set_concurrent_future_state: a task's outcome into a
/// concurrent future, which its thread may have cancelled already.
template <typename T>
void set_concurrent_future_state(const concurrent::Future<T>& destination, Future<T>& source) {
  if (source.cancelled()) destination.cancel();
  if (!destination.set_running_or_notify_cancel()) return;
  if (std::exception_ptr error = source.exception()) {
    destination.set_exception(convert_future_exc(error));
  } else if constexpr (std::is_void_v<T>) {
    destination.set_result();
  } else {
    destination.set_result(source.result());
  }
}
// [copy_future_state]

// [chain_task_to_concurrent]
/// _chain_future(task, concurrent): on the loop's thread, as the task starts.
template <typename T>
void chain_task_to_concurrent(EventLoop& loop, Future<T> task, concurrent::Future<T> destination) {
  std::uint64_t id = loop.keep(Ref<FutureBase>(&task.state()));
  // The other thread cancels its future: the task is cancelled, on the loop.
  destination.add_done_callback(
      [queue = loop.share_threadsafe_queue(), loop = &loop, id](const concurrent::Future<T>& done) {
        if (!done.cancelled()) return;
        queue->post(
            [loop, id] {
              if (Ref<FutureBase> task = loop->take_kept(id)) task->cancel();
            },
            nullptr, SourceLocation::current());
      });
  // The task ends: its outcome goes to the other thread's future.
  task.add_done_callback([loop = &loop, id, destination](Future<T>& done) {
    loop->take_kept(id);
    set_concurrent_future_state(destination, done);
  });
}
// [chain_task_to_concurrent]

}  // namespace detail

// [run_coroutine_threadsafe]
/// asyncio.run_coroutine_threadsafe(coro, loop), from a thread that is not
/// the loop's: the loop starts `coro` as a task (through its task factory)
/// in a later turn, and the returned future gets its outcome. Cancelling
/// that future cancels the task. RuntimeError if the loop is closed.
template <typename T>
concurrent::Future<T> run_coroutine_threadsafe(Coro<T> coro, EventLoop& loop) {
  concurrent::Future<T> future;
  loop.call_soon_threadsafe([coro = std::move(coro), future, loop = &loop]() mutable {
    try {
      Task<T> task = create_task(*loop, std::move(coro));
      detail::chain_task_to_concurrent<T>(*loop, task, future);
    } catch (const LoopExit&) {
      throw;  // SystemExit, KeyboardInterrupt: out of the loop, the future left pending
    } catch (...) {
      if (future.set_running_or_notify_cancel()) future.set_exception(std::current_exception());
      throw;  // and to the loop's exception handler, as asyncio's
    }
  });
  return future;
}
// [run_coroutine_threadsafe]

// [wrap_future]
/// asyncio.wrap_future(future, loop=loop), on the loop's thread: a loop's
/// future that completes as `source` does, one turn after its thread
/// completes it. Cancelling the returned future cancels `source` (which
/// refuses once its work is running: the thread cannot be stopped).
template <typename T>
Future<T> wrap_future(concurrent::Future<T> source, EventLoop& loop) {
  Future<T> destination = loop.create_future<T>();
  std::uint64_t id = loop.keep(Ref<FutureBase>(&destination.state()));
  destination.add_done_callback([loop = &loop, id, source](Future<T>& done) {
    loop->take_kept(id);
    if (done.cancelled()) source.cancel();
  });
  source.add_done_callback(
      [queue = loop.share_threadsafe_queue(), loop = &loop, id](const concurrent::Future<T>& done) {
        // asyncio returns if the loop is closed, then posts; here the loop
        // may close between the two, so post()'s refusal is the same answer.
        try {
          queue->post(
              [loop, id, done] {
                Ref<FutureBase> kept = loop->take_kept(id);
                if (kept) detail::copy_future_state(done, static_cast<FutureState<T>&>(*kept));
              },
              nullptr, SourceLocation::current());
        } catch (const RuntimeError&) {
          // the loop closed (or is gone): nobody to tell
        }
      });
  return destination;
}
/// asyncio.wrap_future(future): the same on the running loop.
template <typename T>
Future<T> wrap_future(concurrent::Future<T> source) {
  return wrap_future(std::move(source), get_running_loop());
}
// [wrap_future]

}  // namespace looplab
