// timeout(0): the expiry is call_soon(), queued ahead of the body's next step, which then gets
// CancelledError.
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> body() {
  say("body starts, yields with sleep(0)");
  co_await looplab::sleep(0s);
  say("body resumed?!");
  co_return 1;
}

looplab::Coro<void> main_task() {
  try {
    co_await looplab::timeout(0s, body());
  } catch (const looplab::TimeoutError&) {
    say("TimeoutError");
  }
}

}  // namespace

LOOPLAB_SCENARIO(timeout_zero_expires_before_the_body_resumes) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task());
  run_turns(loop, 2);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// expect: turn 1: body starts, yields with sleep(0)
// expect: turn 2: TimeoutError
// expect: turn 2: main done: True
