// A custom exception handler runs in the Context of the task a report is
// about (asyncio 3.12+, Task.get_context()): "Task exception was never
// retrieved" sees what the task's coroutine set, not the caller's value.
#include <optional>
#include <string>

#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::trace;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

looplab::Coro<void> fails() {
  trace("task starts with request_id = " + request_id.get());
  request_id.set("set inside the task");
  throw looplab::ValueError("nobody asked");
  co_return;  // never reached: it makes this function a coroutine
}

}  // namespace

LOOPLAB_SCENARIO(handler_runs_in_the_failing_tasks_context) {
  looplab::Context::current() = looplab::Context();
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    trace("handler: " + context.message + ", request_id = " + request_id.get());
  });
  request_id.set("req-7");
  std::optional<looplab::Task<void>> failing = looplab::create_task(loop, fails());
  request_id.set("main");
  run_turns(loop, 1);
  trace("dropping the task");
  failing.reset();
  trace("main sees request_id = " + request_id.get());
  loop.close();
}

// expect: task starts with request_id = req-7
// expect: dropping the task
// expect: handler: Task exception was never retrieved, request_id = set inside the task
// expect: main sees request_id = main
