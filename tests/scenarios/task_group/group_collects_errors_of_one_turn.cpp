// Children that fail in the same turn are all collected, in the order they failed, and a slower
// one is cancelled. str() of the group (what() in C++) says how many there are.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> worker(std::string name, std::chrono::seconds delay) {
  try {
    co_await looplab::sleep(delay);
  } catch (const looplab::CancelledError&) {
    say_at(name + " cancelled");
    throw;
  }
  say_at(name + " finished");
}

looplab::Coro<void> failing(std::exception_ptr error) {
  co_await looplab::sleep(1s);
  say_at("raises " + looplab::describe_exception(error));
  std::rethrow_exception(error);
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  std::exception_ptr a = std::make_exception_ptr(looplab::ValueError("a"));
  std::exception_ptr b = std::make_exception_ptr(looplab::TypeError("b"));
  group->create_task(worker("slow", 2s));
  group->create_task(failing(a));
  group->create_task(failing(b));
  co_return;
}

looplab::Coro<void> main_task() {
  try {
    co_await looplab::task_group(body);
  } catch (const looplab::ExceptionGroup& error) {
    say_at("message: " + error.message());
    say_at(std::string("printed: ") + error.what());
    for (const std::exception_ptr& each : error.exceptions()) {
      say_at("  " + looplab::describe_exception(each));
    }
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_collects_errors_of_one_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 raises ValueError: a
// expect: t=1.000 raises TypeError: b
// expect: t=1.000 slow cancelled
// expect: t=1.000 message: unhandled errors in a TaskGroup
// expect: t=1.000 printed: unhandled errors in a TaskGroup (2 sub-exceptions)
// expect: t=1.000   ValueError: a
// expect: t=1.000   TypeError: b
