// An exception raised in the eager step is stored in the task, as in any step: create_task()
// returns normally, with the task done.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> fails() {
  say("child raises ValueError");
  throw looplab::ValueError("boom");
  co_return 0;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<int> task = looplab::create_task(*loop, fails());
  say(std::string("create_task() returned; child done: ") + py(task.done()));
  try {
    std::rethrow_exception(task.exception());
  } catch (const looplab::ValueError& error) {
    say(std::string("child's exception: ValueError: ") + error.what());
  }
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(eager_step_exception_is_stored) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: child raises ValueError
// expect: turn 1: create_task() returned; child done: True
// expect: turn 1: child's exception: ValueError: boom
