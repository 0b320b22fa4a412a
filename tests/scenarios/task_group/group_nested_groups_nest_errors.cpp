// A group inside a group: the inner group's ExceptionGroup is the outer body's error, so it
// cancels the outer group's child and comes out nested in the outer ExceptionGroup.
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

looplab::Coro<void> failing() {
  co_await looplab::sleep(1s);
  say_at("inner child raises ValueError('inner')");
  throw looplab::ValueError("inner");
}

void show(const std::exception_ptr& error, int depth) {
  say_at(std::string(2 * depth, ' ') + looplab::describe_exception(error));
  try {
    std::rethrow_exception(error);
  } catch (const looplab::ExceptionGroup& group) {
    for (const std::exception_ptr& each : group.exceptions()) show(each, depth + 1);
  } catch (...) {
  }
}

looplab::Coro<void> inner_body(looplab::TaskGroup* inner) {
  inner->create_task(failing());
  co_await looplab::sleep(10s);
}

looplab::Coro<void> outer_body(looplab::TaskGroup* outer) {
  outer->create_task(worker("outer child", 5s));
  co_await looplab::task_group(inner_body);
}

looplab::Coro<void> main_task() {
  try {
    co_await looplab::task_group(outer_body);
  } catch (const looplab::ExceptionGroup&) {
    show(std::current_exception(), 0);
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_nested_groups_nest_errors) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 inner child raises ValueError('inner')
// expect: t=1.000 outer child cancelled
// expect: t=1.000 ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000   ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000     ValueError: inner
