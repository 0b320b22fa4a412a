// A task that failed and that nobody asked is reported when it goes: 'Task exception was never
// retrieved'.
#include <optional>

#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;
using looplab::testing::trace;

namespace {

looplab::Coro<void> fails() {
  say("task raises ValueError('nobody asked')");
  throw looplab::ValueError("nobody asked");
  co_return;  // never reached: it makes this function a coroutine
}

looplab::Coro<void> asked() {
  throw looplab::ValueError("asked");
  co_return;  // never reached: it makes this function a coroutine
}

}  // namespace

LOOPLAB_SCENARIO(task_exception_never_retrieved) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    std::string error = "?";
    try {
      std::rethrow_exception(context.exception);
    } catch (const looplab::ValueError& e) {
      error = std::string("ValueError('") + e.what() + "')";
    } catch (...) {
    }
    trace("handler: " + context.message + ": " + error);
  });
  std::optional<looplab::Task<void>> failing = looplab::create_task(loop, fails());
  std::optional<looplab::Task<void>> looked_at = looplab::create_task(loop, asked());
  run_turns(loop, 1);
  std::string seen = "?";
  try {
    std::rethrow_exception(looked_at->exception());
  } catch (const looplab::ValueError& e) {
    seen = std::string("ValueError('") + e.what() + "')";
  }
  say("looked_at.exception() -> " + seen);
  trace("dropping both tasks");
  failing.reset();
  looked_at.reset();
  trace("dropped");
  loop.close();
}

// expect: turn 1: task raises ValueError('nobody asked')
// expect: turn 1: looked_at.exception() -> ValueError('asked')
// expect: dropping both tasks
// expect: handler: Task exception was never retrieved: ValueError('nobody asked')
// expect: dropped
