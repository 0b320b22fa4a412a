// The tasks gather() makes for coroutines are its own: nobody else can hold them, so closing
// the loop while they are pending does not report them as destroyed (asyncio's gather() sets
// their _log_destroy_pending to False). A task the program made itself still is reported.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;
using looplab::testing::trace;

namespace {

looplab::Coro<int> stuck(looplab::Future<int> future) {
  say("a child waits for a future nobody completes");
  int value = co_await future;
  co_return value;
}

}  // namespace

LOOPLAB_SCENARIO(gather_children_destroyed_pending_unreported) {
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
  looplab::Future<std::vector<int>> all = looplab::gather(loop, stuck(future), stuck(future));
  looplab::Task<int> mine = looplab::create_task(loop, stuck(future));
  run_turns(loop, 1);
  trace("closing the loop");
  loop.close();
  trace("closed");
}

// expect: turn 1: a child waits for a future nobody completes
// expect: turn 1: a child waits for a future nobody completes
// expect: turn 1: a child waits for a future nobody completes
// expect: closing the loop
// expect: handler: Task was destroyed but it is pending!
// expect: closed
