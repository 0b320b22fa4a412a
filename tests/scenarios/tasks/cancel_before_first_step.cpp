// A task cancelled before its first step ends cancelled without running its body.
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

LOOPLAB_SCENARIO(cancel_before_first_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, body());
  say(std::string("cancel() -> ") + py(task.cancel()));
  say("cancelling() -> " + std::to_string(task.cancelling()) + ", done() -> " + py(task.done()));
  run_turns(loop, 1);
  say(std::string("cancelled() -> ") + py(task.cancelled()));
  loop.close();
}

// expect: turn 0: cancel() -> True
// expect: turn 0: cancelling() -> 1, done() -> False
// expect: turn 1: cancelled() -> True
