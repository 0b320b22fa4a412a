// A coroutine that raises CancelledError on its own ends its task cancelled; nobody called
// cancel().
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body() {
  co_await looplab::sleep(0s);
  say("body raises CancelledError('by itself')");
  throw looplab::CancelledError("by itself");
}

}  // namespace

LOOPLAB_SCENARIO(coroutine_raises_cancelled_itself) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, body());
  run_turns(loop, 2);
  say(std::string("cancelled() -> ") + py(task.cancelled()) + ", cancelling() -> " +
      std::to_string(task.cancelling()));
  try {
    task.result();
  } catch (const looplab::CancelledError& error) {
    say(std::string("result() raises CancelledError('") + error.what() + "')");
  }
  loop.close();
}

// expect: turn 2: body raises CancelledError('by itself')
// expect: turn 2: cancelled() -> True, cancelling() -> 0
// expect: turn 2: result() raises CancelledError('by itself')
