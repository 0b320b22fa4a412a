// SystemExit raised in the eager step is stored in the task and also escapes create_task(), as it
// escapes any step; the creator is the current task again.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::TaskBase* task = nullptr;       // main
looplab::Ref<looplab::FutureBase> seen;  // the child, held as Python's list holds it

looplab::Coro<void> child() {
  seen = looplab::Ref<looplab::FutureBase>(&looplab::TaskBase::current()->as_future());
  say("child raises SystemExit(3)");
  throw looplab::SystemExit(3);
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  try {
    (void)looplab::create_task(*loop, child());
  } catch (const looplab::SystemExit& error) {
    say("create_task() raised SystemExit(" + std::to_string(error.code()) + ")");
  }
  say(std::string("current_task() is main again: ") + py(looplab::TaskBase::current() == task));
  try {
    std::rethrow_exception(seen->exception());
  } catch (const looplab::SystemExit& error) {
    say(std::string("the child: done ") + py(seen->done()) + "; exception: SystemExit(" +
        std::to_string(error.code()) + ")");
  }
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(system_exit_in_eager_step_escapes_create_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> handle = looplab::create_task(loop, main_task(&loop));
  task = &handle.base();
  run_turns(loop, 1);
  say(std::string("main done: ") + py(handle.done()));
  seen.reset();
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: child raises SystemExit(3)
// expect: turn 1: create_task() raised SystemExit(3)
// expect: turn 1: current_task() is main again: True
// expect: turn 1: the child: done True; exception: SystemExit(3)
// expect: turn 1: main done: True
