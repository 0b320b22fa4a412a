// A failed gather() that nobody awaits is reported, when its future goes, as
// CPython names its class: "_GatheringFuture exception was never retrieved".
// Its failed child was retrieved by the gather, and is not reported.
#include <optional>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> fails() {
  throw looplab::ValueError("boom");
  co_return 0;
}

}  // namespace

LOOPLAB_SCENARIO(gather_exception_never_retrieved_names_the_gathering_future) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    say("handler: " + context.message + ": " + looplab::describe_exception(context.exception));
  });
  std::optional<looplab::Future<std::vector<int>>> all = looplab::gather(loop, fails());
  run_turns(loop, 2);
  say("dropping the gather");
  all.reset();
  say("dropped");
  loop.close();
}

// expect: turn 2: dropping the gather
// expect: turn 2: handler: _GatheringFuture exception was never retrieved: ValueError: boom
// expect: turn 2: dropped
