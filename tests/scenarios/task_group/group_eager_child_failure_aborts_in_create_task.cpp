// With eager_task_factory, a child that fails in its first step aborts the group inside
// create_task(): the sibling and the parent are cancelled before create_task() returns, and the
// body goes on until its next await, where the group's cancellation reaches it.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> slow() {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    say("slow child cancelled");
    throw;
  }
}

looplab::Coro<void> bad() {
  say("bad child raises ValueError('eager')");
  throw looplab::ValueError("eager");
  co_return;
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group, looplab::TaskBase* me) {
  group->create_task(slow());
  group->create_task(bad());
  say("after create_task: " + group->repr() +
      "; cancelling() = " + std::to_string(me->cancelling()));
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    say("body: CancelledError at its next await");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::TaskBase* me = looplab::TaskBase::current();
  try {
    co_await looplab::task_group(body, me);
  } catch (const looplab::ExceptionGroup& error) {
    say(std::string("ExceptionGroup: ") + error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_eager_child_failure_aborts_in_create_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task());
  run_turns(loop, 4);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: bad child raises ValueError('eager')
// expect: turn 1: after create_task: <TaskGroup tasks=1 errors=1 cancelling>; cancelling() = 1
// expect: turn 2: slow child cancelled
// expect: turn 2: body: CancelledError at its next await
// expect: turn 4: ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: turn 4: main done: True
