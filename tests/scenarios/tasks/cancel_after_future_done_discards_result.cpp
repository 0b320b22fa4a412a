// cancel() after the awaited future completed but before the wakeup: the result is dropped,
// CancelledError thrown.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> body(looplab::Future<int> future) {
  try {
    int value = co_await future;
    say("body got " + std::to_string(value));
  } catch (const looplab::CancelledError&) {
    say("body got CancelledError instead of the result");
    throw;
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancel_after_future_done_discards_result) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Future<int> future = loop.create_future<int>();
  looplab::Task<void> task = looplab::create_task(loop, body(future));
  run_turns(loop, 1);
  future.set_result(99);
  say("future.set_result(99); the wakeup is queued");
  bool cancelled = task.cancel();
  say(std::string("task.cancel() -> ") + py(cancelled) + ", future.cancelled() -> " +
      py(future.cancelled()));
  run_turns(loop, 1);
  say(std::string("task.cancelled() -> ") + py(task.cancelled()) + ", future.result() -> " +
      std::to_string(future.result()));
  loop.close();
}

// expect: turn 1: future.set_result(99); the wakeup is queued
// expect: turn 1: task.cancel() -> True, future.cancelled() -> False
// expect: turn 2: body got CancelledError instead of the result
// expect: turn 2: task.cancelled() -> True, future.result() -> 99
