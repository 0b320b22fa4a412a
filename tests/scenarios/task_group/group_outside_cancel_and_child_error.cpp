// Cancelled from outside in the turn a child fails: the group raises its ExceptionGroup (errors
// win over the cancellation), the parent's cancelling() stays 1, and its next await is cancelled:
// the outside request is kept. CPython 3.12 raises the same group but loses that request: the
// next await runs ("t=2.000 the next await ran").
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> child(looplab::TaskBase* parent) {
  co_await looplab::sleep(1s);
  say_at("child cancels the parent, then raises ValueError('child')");
  parent->cancel();
  throw looplab::ValueError("child");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group, looplab::TaskBase* me) {
  group->create_task(child(me));
  co_await looplab::sleep(10s);
}

looplab::Coro<void> main_task() {
  looplab::TaskBase* me = looplab::TaskBase::current();
  try {
    co_await looplab::task_group(body, me);
  } catch (const looplab::ExceptionGroup& error) {
    say_at(std::string("ExceptionGroup: ") + error.what());
    say_at("cancelling() = " + std::to_string(me->cancelling()));
  }
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    say_at("the next await is cancelled");
    throw;
  }
  say_at("the next await ran");
}

}  // namespace

LOOPLAB_SCENARIO(group_outside_cancel_and_child_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task());
  try {
    loop.run_until_complete(task);
  } catch (const looplab::CancelledError&) {
    looplab::testing::trace(std::string("main cancelled: ") + py(task.cancelled()));
  }
  loop.close();
}

// requires-python: 3.13
// expect: t=1.000 child cancels the parent, then raises ValueError('child')
// expect: t=1.000 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000 cancelling() = 1
// expect: t=1.000 the next await is cancelled
// expect: main cancelled: True
