// Closing a loop with a task still pending: the task goes, reported as 'Task was destroyed but it
// is pending!'. (CPython reports when the collector frees the task; looplab when the loop closes.)
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;
using looplab::testing::trace;

namespace {

looplab::Coro<void> stuck(looplab::Future<int> future) {
  say("task waits for a future nobody completes");
  co_await future;
}

}  // namespace

LOOPLAB_SCENARIO(destroyed_pending_task_reported) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    if (context.message.starts_with("Task was destroyed but it is pending!")) {
      trace("handler: Task was destroyed but it is pending!");
    } else {
      trace("handler: " + context.message);
    }
  });
  looplab::Future<int> future = loop.create_future<int>();
  looplab::Task<void> task = looplab::create_task(loop, stuck(future));
  run_turns(loop, 2);
  say(std::string("task done: ") + py(task.done()));
  trace("closing the loop");
  loop.close();
  trace("closed");
}

// expect: turn 1: task waits for a future nobody completes
// expect: turn 2: task done: False
// expect: closing the loop
// expect: handler: Task was destroyed but it is pending!
// expect: closed
