// TaskGroup: the first child's error cancels the sibling, and the block raises an ExceptionGroup
// once every child has ended. (gather_error_leaves_sibling_running: the same with gather().)
#include <optional>

#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<int> sibling() {
  try {
    co_await looplab::sleep(2s);
  } catch (const looplab::CancelledError&) {
    say_at("sibling cancelled");
    throw;
  }
  say_at("sibling finished");
  co_return 2;
}

looplab::Coro<int> failing() {
  co_await looplab::sleep(1s);
  say_at("failing child raises ValueError('boom')");
  throw looplab::ValueError("boom");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group, std::optional<looplab::Task<int>>* other) {
  other->emplace(group->create_task(sibling()));
  group->create_task(failing());
  co_return;
}

looplab::Coro<void> main_task() {
  std::optional<looplab::Task<int>> other;
  std::string caught;
  try {
    co_await looplab::task_group(body, &other);
  } catch (const looplab::ExceptionGroup& error) {
    caught = "ExceptionGroup";
    say_at("group raised " + caught + ": " + error.what());
    say_at(std::string("sibling done? ") + py(other->done()));
  }
  std::string fate = other->cancelled() ? "sibling-cancelled" : "sibling-finished";
  say_at("outcome: ('" + caught + "', '" + fate + "')");
}

}  // namespace

LOOPLAB_SCENARIO(group_error_cancels_sibling) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 failing child raises ValueError('boom')
// expect: t=1.000 sibling cancelled
// expect: t=1.000 group raised ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
// expect: t=1.000 sibling done? True
// expect: t=1.000 outcome: ('ExceptionGroup', 'sibling-cancelled')
