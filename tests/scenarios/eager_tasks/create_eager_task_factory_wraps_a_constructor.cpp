// create_eager_task_factory(constructor) makes a factory that calls the constructor with
// eager_start=True for every task the loop creates.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

// The "task constructor": here it only starts the task, as asyncio.Task would.
void traced_task(looplab::EventLoop& loop, looplab::TaskBase& task,
                 std::optional<bool> eager_start) {
  say(std::string("constructor: eager_start=") + py(eager_start.value_or(false)));
  looplab::start_task(loop, task, eager_start);
}

looplab::Coro<void> child() {
  say("child: first step");
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, child());
  say(std::string("main: child done: ") + py(task.done()));
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(create_eager_task_factory_wraps_a_constructor) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::create_eager_task_factory(traced_task));
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 0: constructor: eager_start=True
// expect: turn 1: constructor: eager_start=True
// expect: turn 1: child: first step
// expect: turn 1: main: child done: True
