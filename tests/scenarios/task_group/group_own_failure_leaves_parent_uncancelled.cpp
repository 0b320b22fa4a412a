// The group stops its body by cancelling the parent when a child fails, and takes that back:
// once the ExceptionGroup is out, the parent's cancelling() is 0 and its later awaits run.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> failing() {
  co_await looplab::sleep(1s);
  say_at("child raises ValueError('child')");
  throw looplab::ValueError("child");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group, looplab::TaskBase* me) {
  group->create_task(failing());
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError&) {
    say_at("body cancelled by the group; cancelling() = " + std::to_string(me->cancelling()));
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::TaskBase* me = looplab::TaskBase::current();
  try {
    co_await looplab::task_group(body, me);
  } catch (const looplab::ExceptionGroup& error) {
    say_at(std::string("ExceptionGroup: ") + error.what());
    say_at("cancelling() = " + std::to_string(me->cancelling()));
  }
  co_await looplab::sleep(1s);
  say_at("a later await ran");
}

}  // namespace

LOOPLAB_SCENARIO(group_own_failure_leaves_parent_uncancelled) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 child raises ValueError('child')
// expect: t=1.000 body cancelled by the group; cancelling() = 1
// expect: t=1.000 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000 cancelling() = 0
// expect: t=2.000 a later await ran
