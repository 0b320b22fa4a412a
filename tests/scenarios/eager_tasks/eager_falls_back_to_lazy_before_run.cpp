// With eager_task_factory set, a task created while the loop is not running starts lazily, in the
// first turn; one created from inside the running loop starts eagerly.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> child(std::string label) {
  say(label + " child: first step");
  co_return;
}

void from_callback(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, child("running-loop"));
  say(std::string("running-loop child done after create_task(): ") + py(task.done()));
}

}  // namespace

LOOPLAB_SCENARIO(eager_falls_back_to_lazy_before_run) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  looplab::Task<void> early = looplab::create_task(loop, child("early"));
  say(std::string("early child done after create_task(): ") + py(early.done()));
  loop.call_soon([&loop] { from_callback(&loop); });
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.12
// expect: turn 0: early child done after create_task(): False
// expect: turn 1: early child: first step
// expect: turn 1: running-loop child: first step
// expect: turn 1: running-loop child done after create_task(): True
