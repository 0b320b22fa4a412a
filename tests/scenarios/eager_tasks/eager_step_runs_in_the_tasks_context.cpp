// The eager step already runs in the task's own copy of the creator's context: it sees the
// creator's values, and what it sets stays in the task's context.
#include "looplab/context.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

looplab::Coro<void> child() {
  say("child sees " + request_id.get());
  request_id.set("set by the child");
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  request_id.set("main's");
  looplab::Task<void> task = looplab::create_task(*loop, child());
  say("after create_task(), main sees " + request_id.get());
  say("the child's context holds " + task.get_context().run([] { return request_id.get(); }));
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(eager_step_runs_in_the_tasks_context) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: child sees main's
// expect: turn 1: after create_task(), main sees main's
// expect: turn 1: the child's context holds set by the child
