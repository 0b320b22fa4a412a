// A body that swallows the timeout's cancellation returns its value: no TimeoutError.
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> body() {
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "body swallowed the cancellation");
  }
  co_return 7;
}

looplab::Coro<void> main_task() {
  int value = co_await looplab::timeout(1s, body());
  say_at(looplab::get_running_loop(),
         "timeout block gave " + std::to_string(value) + "; cancelling() -> " +
             std::to_string(looplab::TaskBase::current()->cancelling()));
}

}  // namespace

LOOPLAB_SCENARIO(timeout_swallowed_returns_value) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 body swallowed the cancellation
// expect: t=1.000 timeout block gave 7; cancelling() -> 0
