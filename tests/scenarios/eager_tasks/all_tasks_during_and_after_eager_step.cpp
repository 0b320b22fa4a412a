// all_tasks() includes an eager task during its eager step, and no longer once it has finished
// there.
#include <algorithm>

#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

bool among(const std::vector<looplab::TaskBase*>& tasks, looplab::TaskBase* task) {
  return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
}

looplab::Coro<void> child(looplab::EventLoop* loop) {
  std::vector<looplab::TaskBase*> tasks = looplab::all_tasks(*loop);
  say("during the step: all_tasks: " + std::to_string(tasks.size()) +
      "; the child among them: " + py(among(tasks, looplab::TaskBase::current())));
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, child(loop));
  std::vector<looplab::TaskBase*> tasks = looplab::all_tasks(*loop);
  say(std::string("after create_task(): child done: ") + py(task.done()) + "; all_tasks: " +
      std::to_string(tasks.size()) + "; the child among them: " + py(among(tasks, &task.base())));
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(all_tasks_during_and_after_eager_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: during the step: all_tasks: 2; the child among them: True
// expect: turn 1: after create_task(): child done: True; all_tasks: 1; the child among them: False
