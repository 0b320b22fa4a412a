// During the eager step current_task() is the new task; after create_task() it is the creator
// again: the creating task, or None in a plain callback.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::TaskBase* seen = nullptr;  // current_task() during the child's step

const char* repr(looplab::TaskBase* current) { return current == nullptr ? "None" : "a task"; }

looplab::Coro<void> child() {
  seen = looplab::TaskBase::current();
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::TaskBase* me = looplab::TaskBase::current();
  looplab::Task<void> task = looplab::create_task(*loop, child());
  say(std::string("from a task: during the step, current_task() was the child: ") +
      py(seen == &task.base()));
  say(std::string("from a task: after create_task(), it is the creator: ") +
      py(looplab::TaskBase::current() == me));
  co_return;
}

void from_callback(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, child());
  say(std::string("from a callback: during the step, current_task() was the child: ") +
      py(seen == &task.base()));
  say(std::string("from a callback: after create_task(), it is ") +
      repr(looplab::TaskBase::current()));
}

}  // namespace

LOOPLAB_SCENARIO(current_task_during_eager_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  loop.call_soon([&loop] { from_callback(&loop); });
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: from a task: during the step, current_task() was the child: True
// expect: turn 1: from a task: after create_task(), it is the creator: True
// expect: turn 1: from a callback: during the step, current_task() was the child: True
// expect: turn 1: from a callback: after create_task(), it is None
