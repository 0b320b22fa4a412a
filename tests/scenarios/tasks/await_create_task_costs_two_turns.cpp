// co_await create_task(child()) costs two turns: the child's first step, then the parent's wakeup.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> child() {
  say("child runs");
  co_return 7;
}

looplab::Coro<void> parent() {
  say("parent creates the child and awaits it");
  int value = co_await looplab::create_task(looplab::get_running_loop(), child());
  say("parent resumes with " + std::to_string(value));
}

}  // namespace

LOOPLAB_SCENARIO(await_create_task_costs_two_turns) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, parent());
  run_turns(loop, 3);
  say(std::string("parent done: ") + looplab::testing::py(task.done()));
  loop.close();
}

// expect: turn 1: parent creates the child and awaits it
// expect: turn 2: child runs
// expect: turn 3: parent resumes with 7
// expect: turn 3: parent done: True
