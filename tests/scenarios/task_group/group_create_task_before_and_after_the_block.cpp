// create_task() on a group not entered yet, and on a group whose block has ended, is a
// RuntimeError with asyncio's message, which shows repr(group). The refused coroutine never runs
// (3.13 closes it; 3.12 leaves it to a "never awaited" RuntimeWarning on stderr).
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> child(std::string name) {
  say_at(name + " runs");
  co_return;
}

looplab::Coro<void> main_task() {
  looplab::TaskGroup group;
  say_at("before: " + group.repr());
  try {
    group.create_task(child("too early"));
  } catch (const looplab::RuntimeError& error) {
    say_at(std::string("RuntimeError: ") + error.what());
  }
  // `async with group:`, spelled out (task_group() does this around a body),
  // so that the group outlives its block.
  group.enter();
  group.create_task(child("in time"));
  say_at("inside: " + group.repr());
  co_await group.exit(nullptr);  // nothing was raised in the block
  say_at("after: " + group.repr());
  try {
    group.create_task(child("too late"));
  } catch (const looplab::RuntimeError& error) {
    say_at(std::string("RuntimeError: ") + error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_create_task_before_and_after_the_block) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 before: <TaskGroup>
// expect: t=0.000 RuntimeError: TaskGroup <TaskGroup> has not been entered
// expect: t=0.000 inside: <TaskGroup tasks=1 entered>
// expect: t=0.000 in time runs
// expect: t=0.000 after: <TaskGroup entered>
// expect: t=0.000 RuntimeError: TaskGroup <TaskGroup entered> is finished
