// runner.hpp: Runner, asyncio.Runner: several run() calls on one loop.
//
// asyncio.run(main()) is a Runner used once: `with asyncio.Runner() as
// runner: runner.run(main())`. A Runner kept across calls keeps its loop, so
// a task one call left pending goes on while the next call runs, and its main
// tasks run in one Context, the Runner's: what the first one sets, the
// second one sees. Closing it (close(), or the end of its scope, where
// Python leaves the `with` block) ends as run() does: the leftovers are
// cancelled and given their turns, the default executor is shut down, the
// loop is closed.
//
//   Runner runner;                  // with asyncio.Runner() as runner:
//   runner.run(connect());          //     runner.run(connect())
//   int n = runner.run(work());     //     n = runner.run(work())
//
// One difference: asyncio's main task runs in the Runner's Context object
// itself; here the Context is moved into the task and back once run()
// returns or throws. So the Runner's Context keeps its identity (a token
// one call's set() gave resets in the next), but while a main task runs,
// nothing else sees what it sets; a main task left pending (loop.stop(), a
// second Ctrl-C) keeps the Context, and the Runner goes on with a copy; and
// if no task can be made (a task factory that throws), the Runner keeps a
// copy, without the identity.
#pragma once

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "looplab/clock.hpp"
#include "looplab/context.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/run.hpp"
#include "looplab/task.hpp"

namespace looplab {

/// asyncio.Runner's keyword arguments. `clock` stands for `loop_factory`:
/// the clock of the loop the Runner makes (default: the real one).
struct RunnerOptions {
  std::optional<bool> debug{};  // loop.set_debug(debug) if given
  Clock* clock = nullptr;
};

class Runner {
 public:
  /// asyncio.Runner(), entered: a new loop, and a copy of the current
  /// Context for the main tasks to run in.
  explicit Runner(RunnerOptions options = {})
      : loop_(options.clock != nullptr ? *options.clock : real_clock()),
        context_(Context::copy_current()) {
    if (options.debug) loop_.set_debug(*options.debug);
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  /// Leaving the `with` block: close(). A destructor cannot throw, so an
  /// error of the cleanup is written to stderr; call close() to get it.
  ~Runner() {
    try {
      close();
    } catch (...) {
      std::fprintf(stderr, "Exception ignored in Runner.close(): %s\n",
                   traceback_last_line(std::current_exception()).c_str());
    }
  }

  /// Runner.run(coro): runs `coro` as the main task, in the Runner's Context,
  /// until it is done, and gives its result (or throws its error). Ctrl-C
  /// cancels it, as in run().
  template <typename T>
  T run(Coro<T> coro) {
    return run(std::move(coro), context_);
  }
  /// Runner.run(coro, context=ctx): the same, in `context`, which holds what
  /// the main task set once it is done.
  template <typename T>
  T run(Coro<T> coro, Context& context);

  /// Runner.get_loop(): the loop the calls run on.
  EventLoop& get_loop() {
    check_open();
    return loop_;
  }

  /// Runner.close(): cancel what is left and let it finish, shut the default
  /// executor down, close the loop. Once only: closing again does nothing.
  void close() {
    if (closed_) return;
    try {
      close_runner(loop_);
    } catch (...) {
      // Closed only if the loop is: close() from inside a main task fails
      // ("Cannot close a running event loop"), and the Runner stays usable.
      closed_ = loop_.is_closed();
      throw;
    }
    closed_ = true;
  }

 private:
  static Clock& real_clock() {
    static SteadyClock clock;
    return clock;
  }
  void check_open() const {
    if (closed_) throw RuntimeError("Runner is closed");
  }

  EventLoop loop_;
  Context context_;  // the main tasks' (asyncio's Runner._context)
  bool closed_ = false;
};

template <typename T>
T Runner::run(Coro<T> coro, Context& context) {
  coro.check_can_start("Runner.run()");
  if (get_running_loop_or_null() != nullptr) {
    throw RuntimeError("Runner.run() cannot be called from a running event loop");
  }
  check_open();
  // Moved, not copied, in and out: a Context keeps its identity for the
  // tokens made in it (a token set() gave in one call can reset() in the next).
  Context spare = context;  // given back if no task is made (a task factory that throws)
  std::optional<Task<T>> task;
  try {
    task.emplace(create_task(loop_, std::move(coro), {.context = std::move(context)}));
  } catch (...) {
    context = std::move(spare);
    throw;
  }
  ScopeExit hand_back([&] {
    if (task->done()) {
      context = std::move(task->get_context());
    } else {
      context = task->get_context();  // still pending, and it runs in it: a copy
    }
  });
  return run_main_task(loop_, *task);
}

}  // namespace looplab
