// run.hpp: run(main), asyncio.run(): a program's one entry into the loop.
//
// A fresh loop runs `main` as a task until it is done; then, as asyncio's
// Runner.close(): every task still pending is cancelled and given the turns
// it needs to finish (its cleanup runs: asyncio's _cancel_all_tasks), the
// default executor finishes its work and its threads end
// (shutdown_default_executor(), up to 300 seconds), and the loop is closed.
#pragma once

#include <utility>
#include <vector>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/gather.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/task.hpp"

namespace looplab {

/// asyncio.runners._cancel_all_tasks: cancel what is left, and let it finish.
void cancel_all_tasks(EventLoop& loop);

/// How long run() waits for the default executor's threads (asyncio's
/// constants.THREAD_JOIN_TIMEOUT).
inline constexpr double kThreadJoinTimeoutSeconds = 300;

// [run]
/// asyncio.run(main()): the result of `main`, run on a new loop (on the
/// given clock, or the real one), which is closed afterwards.
template <typename T>
T run(Coro<T> main, Clock& clock) {
  EventLoop loop(clock);
  ScopeExit close([&loop] {
    try {
      cancel_all_tasks(loop);
      loop.run_until_complete(loop.shutdown_default_executor(kThreadJoinTimeoutSeconds));
    } catch (...) {  // nothing more to do while leaving
    }
    loop.close();
  });
  Task<T> task = create_task(loop, std::move(main));
  if constexpr (std::is_void_v<T>) {
    loop.run_until_complete(task);
  } else {
    return loop.run_until_complete(task);
  }
}

template <typename T>
T run(Coro<T> main) {
  static SteadyClock clock;
  return run(std::move(main), clock);
}
// [run]

}  // namespace looplab
