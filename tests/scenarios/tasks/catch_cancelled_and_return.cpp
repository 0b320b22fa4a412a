// A coroutine that catches CancelledError and returns: the task is not cancelled, cancelling()
// stays 1.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> body() {
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError&) {
    say("body caught CancelledError, returns 7");
  }
  co_return 7;
}

}  // namespace

LOOPLAB_SCENARIO(catch_cancelled_and_return) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<int> task = looplab::create_task(loop, body());
  run_turns(loop, 1);
  say(std::string("cancel() -> ") + py(task.cancel()));
  run_turns(loop, 1);
  say(std::string("cancelled() -> ") + py(task.cancelled()) + ", result() -> " +
      std::to_string(task.result()) + ", cancelling() -> " + std::to_string(task.cancelling()));
  loop.close();
}

// expect: turn 1: cancel() -> True
// expect: turn 2: body caught CancelledError, returns 7
// expect: turn 2: cancelled() -> False, result() -> 7, cancelling() -> 1
