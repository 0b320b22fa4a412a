// Tasks are named Task-1, Task-2, ... from one counter; set_name() renames.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body() { co_return; }

}  // namespace

LOOPLAB_SCENARIO(task_names_count_up) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> first = looplab::create_task(loop, body());
  looplab::Task<void> second = looplab::create_task(loop, body());
  say(first.get_name() + " " + second.get_name());
  second.set_name("worker");
  looplab::Task<void> third = looplab::create_task(loop, body());
  say(first.get_name() + " " + second.get_name() + " " + third.get_name());
  run_turns(loop, 1);
  loop.close();
}

// expect: turn 0: Task-1 Task-2
// expect: turn 0: Task-1 worker Task-3
