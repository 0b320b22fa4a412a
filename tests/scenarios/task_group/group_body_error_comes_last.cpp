// The body's own error cancels the children. A child that fails as it is cancelled comes first
// in the ExceptionGroup; the body's error, though raised before the child's, comes last.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> clumsy() {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    say_at("clumsy child cancelled, raises ValueError('cleanup')");
    throw looplab::ValueError("cleanup");
  }
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  group->create_task(clumsy());
  co_await looplab::sleep(1s);
  say_at("body raises TypeError('body')");
  throw looplab::TypeError("body");
}

looplab::Coro<void> main_task() {
  try {
    co_await looplab::task_group(body);
  } catch (const looplab::ExceptionGroup& error) {
    say_at(std::string("ExceptionGroup: ") + error.what());
    for (const std::exception_ptr& each : error.exceptions()) {
      say_at("  " + looplab::describe_exception(each));
    }
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_body_error_comes_last) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 body raises TypeError('body')
// expect: t=1.000 clumsy child cancelled, raises ValueError('cleanup')
// expect: t=1.000 ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
// expect: t=1.000   ValueError: cleanup
// expect: t=1.000   TypeError: body
