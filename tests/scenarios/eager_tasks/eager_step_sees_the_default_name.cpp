// create_task(coro, name=...) through a task factory names the task only when the factory
// returns: during its eager step the task is still Task-N.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> child() {
  say("during the eager step: " + looplab::TaskBase::current()->get_name());
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, child(), {.name = "fetcher"});
  say("after create_task(): " + task.get_name());
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(eager_step_sees_the_default_name) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // Task-1; the loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: during the eager step: Task-2
// expect: turn 1: after create_task(): fetcher
