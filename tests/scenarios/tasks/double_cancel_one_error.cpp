// Two cancel() calls while a task waits on one future deliver one CancelledError; cancelling()
// is 2.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> body(looplab::Future<int> future) {
  try {
    co_await future;
  } catch (const looplab::CancelledError& error) {
    say(std::string("body caught CancelledError('") + error.what() + "')");
  }
  co_await looplab::sleep(0s);
  say("body after sleep(0): no second CancelledError");
  co_return 5;
}

}  // namespace

LOOPLAB_SCENARIO(double_cancel_one_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Future<int> future = loop.create_future<int>();
  looplab::Task<int> task = looplab::create_task(loop, body(future));
  run_turns(loop, 1);
  bool first = task.cancel("first");
  say(std::string("cancel('first') -> ") + py(first) +
      ", future cancelled: " + py(future.cancelled()));
  bool second = task.cancel("second");
  say(std::string("cancel('second') -> ") + py(second) + ", cancelling() -> " +
      std::to_string(task.cancelling()));
  run_turns(loop, 2);
  say(std::string("done: ") + py(task.done()) + ", cancelled: " + py(task.cancelled()) +
      ", result: " + std::to_string(task.result()) + ", cancelling() -> " +
      std::to_string(task.cancelling()));
  loop.close();
}

// expect: turn 1: cancel('first') -> True, future cancelled: True
// expect: turn 1: cancel('second') -> True, cancelling() -> 2
// expect: turn 2: body caught CancelledError('first')
// expect: turn 3: body after sleep(0): no second CancelledError
// expect: turn 3: done: True, cancelled: False, result: 5, cancelling() -> 2
