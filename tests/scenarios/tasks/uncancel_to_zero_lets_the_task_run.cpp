// CPython 3.13: uncancel() back to zero also drops the pending cancellation; the task runs
// normally. (3.11 and 3.12 keep _must_cancel: there the task ends cancelled.)
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> body() {
  say("body runs");
  co_return 1;
}

}  // namespace

LOOPLAB_SCENARIO(uncancel_to_zero_lets_the_task_run) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<int> task = looplab::create_task(loop, body());
  bool cancelled = task.cancel();
  int left = task.uncancel();
  say(std::string("cancel() -> ") + py(cancelled) + ", uncancel() -> " + std::to_string(left));
  run_turns(loop, 1);
  say(std::string("cancelled() -> ") + py(task.cancelled()) + ", result() -> " +
      std::to_string(task.result()));
  loop.close();
}

// requires-python: 3.13
// expect: turn 0: cancel() -> True, uncancel() -> 0
// expect: turn 1: body runs
// expect: turn 1: cancelled() -> False, result() -> 1
