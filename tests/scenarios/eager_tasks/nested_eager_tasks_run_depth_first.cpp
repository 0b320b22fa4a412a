// Eager tasks nest: a task created in another's eager step runs its own first step at once, so a
// chain of eager tasks runs depth first inside the outermost create_task().
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> nested(looplab::EventLoop* loop, int depth) {
  say("enter " + std::to_string(depth));
  int below = 0;
  if (depth > 0) below = co_await looplab::create_task(*loop, nested(loop, depth - 1));
  say("leave " + std::to_string(depth));
  co_return below + 1;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<int> task = looplab::create_task(*loop, nested(loop, 2));
  say(std::string("create_task() returned; done: ") + py(task.done()) + ", result " +
      std::to_string(task.result()));
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(nested_eager_tasks_run_depth_first) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: enter 2
// expect: turn 1: enter 1
// expect: turn 1: enter 0
// expect: turn 1: leave 0
// expect: turn 1: leave 1
// expect: turn 1: leave 2
// expect: turn 1: create_task() returned; done: True, result 3
