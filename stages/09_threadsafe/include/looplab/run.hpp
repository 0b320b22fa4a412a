// run.hpp: run(main), asyncio.run(): a program's one entry into the loop.
//
// A fresh loop runs `main` as a task until it is done; then every task
// still pending is cancelled and given the turns it needs to finish (its
// cleanup runs: asyncio's _cancel_all_tasks), and the loop is closed.
// While main runs on the main thread, Ctrl-C cancels it (RunnerSigint).
#pragma once

#include <type_traits>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/runner_sigint.hpp"
#include "looplab/task.hpp"

namespace looplab {

/// asyncio.runners._cancel_all_tasks: cancel what is left, and let it finish.
void cancel_all_tasks(EventLoop& loop);

// [run]
/// asyncio's loop.shutdown_asyncgens(). C++ has no async generators, so
/// there is nothing to close; run() still runs it as a task, as asyncio's
/// Runner.close() does, so that leftovers get the same turns as there.
inline Coro<void> shutdown_asyncgens() { co_return; }

/// asyncio.Runner.close(): let the leftovers finish, then close the loop,
/// whatever happens. An error on the way (a leftover that raises SystemExit
/// when cancelled) comes out, as in asyncio.
inline void close_runner(EventLoop& loop) {
  try {
    cancel_all_tasks(loop);
    loop.run_until_complete(shutdown_asyncgens());
  } catch (...) {
    loop.close();
    throw;
  }
  loop.close();
}

/// asyncio.Runner.run(): the main task, run to its end with Ctrl-C
/// turned into its cancellation (runner_sigint.hpp). If that cancellation
/// ends it, and it did not take the cancellation back (uncancel() reaches
/// zero), run() raises KeyboardInterrupt, as Python would have.
template <typename T>
T run_main_task(EventLoop& loop, Task<T>& task) {
  RunnerSigint sigint(loop, task.state());
  try {
    if constexpr (std::is_void_v<T>) {
      loop.run_until_complete(task);
      sigint.take_interrupts();
    } else {
      T result = loop.run_until_complete(task);
      sigint.take_interrupts();
      return result;
    }
  } catch (const CancelledError&) {
    if (sigint.interrupt_count() > 0 && task.uncancel() == 0) throw KeyboardInterrupt();
    throw;
  }
}

/// asyncio.run(main()): the result of `main`, run on a new loop (on the
/// given clock, or the real one), which is closed afterwards.
template <typename T>
T run(Coro<T> main, Clock& clock) {
  if (get_running_loop_or_null() != nullptr) {
    throw RuntimeError("asyncio.run() cannot be called from a running event loop");
  }
  EventLoop loop(clock);
  try {
    Task<T> task = create_task(loop, std::move(main));
    if constexpr (std::is_void_v<T>) {
      run_main_task(loop, task);
      close_runner(loop);
    } else {
      T result = run_main_task(loop, task);
      close_runner(loop);
      return result;
    }
  } catch (...) {
    // As a Python `with` block: an error of the cleanup replaces main's.
    if (!loop.is_closed()) close_runner(loop);
    throw;
  }
}

template <typename T>
T run(Coro<T> main) {
  static SteadyClock clock;
  return run(std::move(main), clock);
}
// [run]

}  // namespace looplab
