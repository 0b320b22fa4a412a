// cancelling() counts cancel() requests, uncancel() takes one back; while one remains the task is
// cancelled.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body() {
  say("body runs");
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(uncancel_counts) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, body());
  say("uncancel() with nothing requested -> " + std::to_string(task.uncancel()));
  task.cancel();
  task.cancel();
  say("two cancel() -> cancelling() " + std::to_string(task.cancelling()));
  say("uncancel() -> " + std::to_string(task.uncancel()));
  run_turns(loop, 1);
  say(std::string("cancelled() -> ") + py(task.cancelled()) + ", cancelling() -> " +
      std::to_string(task.cancelling()));
  bool again = task.cancel();
  say(std::string("cancel() on a done task -> ") + py(again) + ", cancelling() -> " +
      std::to_string(task.cancelling()));
  loop.close();
}

// expect: turn 0: uncancel() with nothing requested -> 0
// expect: turn 0: two cancel() -> cancelling() 2
// expect: turn 0: uncancel() -> 1
// expect: turn 1: cancelled() -> True, cancelling() -> 1
// expect: turn 1: cancel() on a done task -> False, cancelling() -> 1
