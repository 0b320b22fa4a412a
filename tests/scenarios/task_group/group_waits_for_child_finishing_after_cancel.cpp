// A child that catches its CancelledError, cleans up for 1 s and returns: the group waits for
// it, and it ends with its value, not cancelled; only the other child's error is raised.
#include <optional>

#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> failing() {
  co_await looplab::sleep(1s);
  say_at("a raises ValueError('a')");
  throw looplab::ValueError("a");
}

looplab::Coro<std::string> stubborn() {
  bool cancelled = false;
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    cancelled = true;  // no co_await in a handler (pitfall P5)
  }
  if (!cancelled) co_return "full";
  say_at("b cancelled, cleans up for 1 s");
  co_await looplab::sleep(1s);
  say_at("b returns 'partial'");
  co_return "partial";
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group, std::optional<looplab::Task<std::string>>* b) {
  group->create_task(failing());
  b->emplace(group->create_task(stubborn()));
  co_return;
}

looplab::Coro<void> main_task() {
  std::optional<looplab::Task<std::string>> b;
  try {
    co_await looplab::task_group(body, &b);
  } catch (const looplab::ExceptionGroup& error) {
    say_at(std::string("ExceptionGroup: ") + error.what());
  }
  say_at(std::string("b cancelled: ") + py(b->cancelled()) + "; result: '" + b->result() + "'");
}

}  // namespace

LOOPLAB_SCENARIO(group_waits_for_child_finishing_after_cancel) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 a raises ValueError('a')
// expect: t=1.000 b cancelled, cleans up for 1 s
// expect: t=2.000 b returns 'partial'
// expect: t=2.000 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=2.000 b cancelled: False; result: 'partial'
