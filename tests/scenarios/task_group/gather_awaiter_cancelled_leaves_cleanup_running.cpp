// gather(): cancelling the task that awaits it cancels every child, and the awaiter gets its
// CancelledError as soon as one child has ended cancelled, while another is still cleaning up.
// (group_parent_cancelled_waits_for_cleanup: the same with a TaskGroup.)
#include "looplab/gather.hpp"
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

looplab::Coro<void> waiter(looplab::Task<int> fast_task, looplab::Task<int> slow_task) {
  looplab::EventLoop& loop = looplab::get_running_loop();
  try {
    co_await looplab::gather(loop, fast_task, slow_task);
  } catch (const looplab::CancelledError&) {
    say_at(std::string("waiter: CancelledError out of gather(); slow done? ") +
           py(slow_task.done()));
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> fast_task = looplab::create_task(loop, fast());
  looplab::Task<int> slow_task = looplab::create_task(loop, slow());
  looplab::Task<void> task = looplab::create_task(loop, waiter(fast_task, slow_task));
  co_await looplab::sleep(1s);
  say_at("main cancels the waiter");
  task.cancel();
  try {
    co_await task;
  } catch (const looplab::CancelledError&) {
    say_at(std::string("main: the waiter is cancelled: ") + py(task.cancelled()));
  }
  co_await looplab::sleep(2s);  // meanwhile slow ends
}

}  // namespace

LOOPLAB_SCENARIO(gather_awaiter_cancelled_leaves_cleanup_running) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 main cancels the waiter
// expect: t=1.000 fast cancelled
// expect: t=1.000 waiter: CancelledError out of gather(); slow done? False
// expect: t=1.000 main: the waiter is cancelled: True
// expect: t=2.000 slow cleaned up after its cancellation
