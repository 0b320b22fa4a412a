// create_task() schedules the first step with call_soon(): it runs in the next turn, FIFO with
// callbacks.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body(std::string name) {
  say(name + " first step");
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(task_first_step_is_fifo_with_call_soon) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.call_soon([] { say("callback 1"); });
  looplab::Task<void> first = looplab::create_task(loop, body("task 1"));
  loop.call_soon([] { say("callback 2"); });
  looplab::Task<void> second = looplab::create_task(loop, body("task 2"));
  say(std::string("after create_task: started? ") +
      looplab::testing::py(first.done() || second.done()));
  run_turns(loop, 1);
  loop.close();
}

// expect: turn 0: after create_task: started? False
// expect: turn 1: callback 1
// expect: turn 1: task 1 first step
// expect: turn 1: callback 2
// expect: turn 1: task 2 first step
