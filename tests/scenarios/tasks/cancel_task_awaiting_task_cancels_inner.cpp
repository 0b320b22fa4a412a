// Cancelling a task that awaits another task cancels the inner one too (it is the future waited
// for).
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> inner() {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError& error) {
    say(std::string("inner got CancelledError('") + error.what() + "')");
    throw;
  }
}

looplab::Coro<void> outer(looplab::Task<void> task) {
  try {
    co_await task;
  } catch (const looplab::CancelledError& error) {
    say(std::string("outer got CancelledError('") + error.what() + "')");
    throw;
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancel_task_awaiting_task_cancels_inner) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> inner_task = looplab::create_task(loop, inner());
  looplab::Task<void> outer_task = looplab::create_task(loop, outer(inner_task));
  run_turns(loop, 1);
  say(std::string("outer.cancel('from outside') -> ") + py(outer_task.cancel("from outside")));
  say("inner.cancelling() -> " + std::to_string(inner_task.cancelling()) + ", inner.done() -> " +
      py(inner_task.done()));
  run_turns(loop, 2);
  say(std::string("inner cancelled: ") + py(inner_task.cancelled()) +
      ", outer cancelled: " + py(outer_task.cancelled()));
  loop.close();
}

// expect: turn 1: outer.cancel('from outside') -> True
// expect: turn 1: inner.cancelling() -> 1, inner.done() -> False
// expect: turn 2: inner got CancelledError('from outside')
// expect: turn 3: outer got CancelledError('from outside')
// expect: turn 3: inner cancelled: True, outer cancelled: True
