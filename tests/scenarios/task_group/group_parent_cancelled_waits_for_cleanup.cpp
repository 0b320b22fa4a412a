// TaskGroup: cancelling the parent task cancels every child, and the CancelledError leaves the
// block only once every child has ended, the one that cleans up for 1 s too.
// (gather_awaiter_cancelled_leaves_cleanup_running: the same with gather().)
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<int> fast() {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    say_at("fast cancelled");
    throw;
  }
  co_return 0;
}

looplab::Coro<int> slow() {
  std::exception_ptr cancelled;
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    cancelled = std::current_exception();  // no co_await in a handler (pitfall P5)
  }
  if (!cancelled) co_return 0;
  co_await looplab::sleep(1s);  // cleaning up
  say_at("slow cleaned up after its cancellation");
  std::rethrow_exception(cancelled);
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  group->create_task(fast());
  group->create_task(slow());
  co_return;
}

looplab::Coro<void> parent() {
  try {
    co_await looplab::task_group(body);
  } catch (const looplab::CancelledError&) {
    say_at("parent: CancelledError out of the group");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<void> task = looplab::create_task(loop, parent());
  co_await looplab::sleep(1s);
  say_at("main cancels the parent");
  task.cancel();
  try {
    co_await task;
  } catch (const looplab::CancelledError&) {
    say_at(std::string("main: the parent is cancelled: ") + py(task.cancelled()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(group_parent_cancelled_waits_for_cleanup) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 main cancels the parent
// expect: t=1.000 fast cancelled
// expect: t=2.000 slow cleaned up after its cancellation
// expect: t=2.000 parent: CancelledError out of the group
// expect: t=2.000 main: the parent is cancelled: True
