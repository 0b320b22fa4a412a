// timeout(): when it expires the body is cancelled, cleans up, and TimeoutError comes out.
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> body() {
  try {
    co_await looplab::sleep(5s);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "body cleans up");
    throw;
  }
  co_return 1;
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::TaskBase* task = looplab::TaskBase::current();
  try {
    co_await looplab::timeout(1s, body());
  } catch (const looplab::TimeoutError&) {
    say_at(loop, "TimeoutError");
  }
  say_at(loop, "cancelling() -> " + std::to_string(task->cancelling()));
}

}  // namespace

LOOPLAB_SCENARIO(timeout_expires) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 body cleans up
// expect: t=1.000 TimeoutError
// expect: t=1.000 cancelling() -> 0
