// Once a child has failed the group is shutting down: a cancelled sibling that tries to start a
// helper gets RuntimeError, with repr(group) showing the live child, the error and "cancelling".
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> helper() {
  say_at("helper runs");
  co_return;
}

looplab::Coro<void> sibling(looplab::TaskGroup* group) {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    say_at("sibling cancelled, tries to start a helper");
    try {
      group->create_task(helper());
    } catch (const looplab::RuntimeError& error) {
      say_at(std::string("RuntimeError: ") + error.what());
    }
    throw;
  }
}

looplab::Coro<void> failing() {
  co_await looplab::sleep(1s);
  say_at("child raises ValueError('child')");
  throw looplab::ValueError("child");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  group->create_task(sibling(group));
  group->create_task(failing());
  co_return;
}

looplab::Coro<void> main_task() {
  try {
    co_await looplab::task_group(body);
  } catch (const looplab::ExceptionGroup& error) {
    say_at(std::string("ExceptionGroup: ") + error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_create_task_while_shutting_down) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 child raises ValueError('child')
// expect: t=1.000 sibling cancelled, tries to start a helper
// expect: t=1.000 RuntimeError: TaskGroup <TaskGroup tasks=1 errors=1 cancelling> is shutting down
// expect: t=1.000 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
