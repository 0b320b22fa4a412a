// except* ValueError takes the ValueErrors out of the group's ExceptionGroup and handles them;
// the rest, a smaller ExceptionGroup with the same message, propagates. (C++: split<ValueError>().)
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> failing(std::exception_ptr error) {
  co_await looplab::sleep(1s);
  std::rethrow_exception(error);
}

void show(const looplab::ExceptionGroup& group) {
  say_at(std::string("  ") + group.what());
  for (const std::exception_ptr& each : group.exceptions()) {
    say_at("    " + looplab::describe_exception(each));
  }
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  std::exception_ptr a = std::make_exception_ptr(looplab::ValueError("a"));
  std::exception_ptr b = std::make_exception_ptr(looplab::TypeError("b"));
  std::exception_ptr c = std::make_exception_ptr(looplab::ValueError("c"));
  group->create_task(failing(a));
  group->create_task(failing(b));
  group->create_task(failing(c));
  co_return;
}

looplab::Coro<void> handle_value_errors() {
  try {
    co_await looplab::task_group(body);
  } catch (const looplab::ExceptionGroup& group) {  // except* ValueError as handled:
    auto [handled, rest] = group.split<looplab::ValueError>();
    if (handled) {
      say_at("except* ValueError handles:");
      show(*handled);
    }
    if (rest) throw *rest;  // what except* did not match goes on
  }
}

looplab::Coro<void> main_task() {
  try {
    co_await handle_value_errors();
  } catch (const looplab::ExceptionGroup& rest) {
    say_at("the rest propagates:");
    show(rest);
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_except_star_handles_some) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 except* ValueError handles:
// expect: t=1.000   unhandled errors in a TaskGroup (2 sub-exceptions)
// expect: t=1.000     ValueError: a
// expect: t=1.000     ValueError: c
// expect: t=1.000 the rest propagates:
// expect: t=1.000   unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000     TypeError: b
