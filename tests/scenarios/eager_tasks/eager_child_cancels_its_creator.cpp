// A child that cancels its creator during its eager step finds the creator running, not waiting:
// the cancellation is delivered at the creator's next await, a turn later.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> child(looplab::TaskBase* creator) {
  say(std::string("child: creator.cancel() -> ") + py(creator->cancel()));
  co_return;
}

looplab::Coro<void> creator(looplab::EventLoop* loop) {
  looplab::TaskBase* me = looplab::TaskBase::current();
  looplab::Task<void> task = looplab::create_task(*loop, child(me));
  say("creator goes on; cancelling() -> " + std::to_string(me->cancelling()));
  try {
    co_await looplab::sleep(0s);
  } catch (const looplab::CancelledError&) {
    say("creator: CancelledError at its next await");
    throw;
  }
}

}  // namespace

LOOPLAB_SCENARIO(eager_child_cancels_its_creator) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, creator(&loop));
  run_turns(loop, 2);
  say(std::string("creator cancelled: ") + py(task.cancelled()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: child: creator.cancel() -> True
// expect: turn 1: creator goes on; cancelling() -> 1
// expect: turn 2: creator: CancelledError at its next await
// expect: turn 2: creator cancelled: True
