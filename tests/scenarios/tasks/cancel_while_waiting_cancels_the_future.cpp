// Cancelling a task that waits for a future cancels that future; the task sees CancelledError a
// turn later.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body(looplab::Future<int> future) {
  say("body awaits the future");
  try {
    co_await future;
  } catch (const looplab::CancelledError& error) {
    say(std::string("body caught CancelledError('") + error.what() + "')");
    throw;
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancel_while_waiting_cancels_the_future) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Future<int> future = loop.create_future<int>();
  looplab::Task<void> task = looplab::create_task(loop, body(future));
  run_turns(loop, 1);
  say(std::string("task.cancel('stop') -> ") + py(task.cancel("stop")));
  say(std::string("future.cancelled() -> ") + py(future.cancelled()) + ", task.done() -> " +
      py(task.done()));
  run_turns(loop, 1);
  say(std::string("task.cancelled() -> ") + py(task.cancelled()));
  loop.close();
}

// expect: turn 1: body awaits the future
// expect: turn 1: task.cancel('stop') -> True
// expect: turn 1: future.cancelled() -> True, task.done() -> False
// expect: turn 2: body caught CancelledError('stop')
// expect: turn 2: task.cancelled() -> True
