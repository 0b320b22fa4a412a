// wait_for(task, 1): on expiry the task is cancelled and awaited (its cleanup runs), then
// TimeoutError.
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> slow() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::exception_ptr cancelled;
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    cancelled = std::current_exception();  // C++: no co_await inside a handler
  }
  if (cancelled) {
    say_at(loop, "inner cleans up");
    co_await looplab::sleep(500ms);
    say_at(loop, "inner cleanup done");
    std::rethrow_exception(cancelled);
  }
  co_return 1;
}

looplab::Coro<int> quick() {
  co_await looplab::sleep(500ms);
  co_return 2;
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> task = looplab::create_task(loop, slow());
  try {
    co_await looplab::wait_for(looplab::Future<int>(task), 1s);
  } catch (const looplab::TimeoutError&) {
    say_at(loop, std::string("TimeoutError; inner cancelled: ") + py(task.cancelled()));
  }
  looplab::Future<int> in_time = looplab::create_task(loop, quick());
  int value = co_await looplab::wait_for(in_time, 1s);
  say_at(loop, "in time: " + std::to_string(value));
}

}  // namespace

LOOPLAB_SCENARIO(wait_for_timeout_cancels_and_awaits) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 inner cleans up
// expect: t=1.500 inner cleanup done
// expect: t=1.500 TimeoutError; inner cancelled: True
// expect: t=2.000 in time: 2
