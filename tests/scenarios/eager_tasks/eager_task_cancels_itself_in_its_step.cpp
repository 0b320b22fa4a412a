// A task that cancels itself in its eager step is cancelled when the step ends: at once if it
// returns, or through the future it then awaits, which is cancelled straight away.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> returns() {
  say(std::string("returns: cancel() -> ") + py(looplab::TaskBase::current()->cancel()));
  co_return 1;
}

looplab::Coro<void> waits(looplab::Future<int> future) {
  say(std::string("waits: cancel() -> ") + py(looplab::TaskBase::current()->cancel()));
  try {
    co_await future;
  } catch (const looplab::CancelledError&) {
    say("waits: CancelledError");
    throw;
  }
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Future<int> future = loop->create_future<int>();
  looplab::Task<int> first = looplab::create_task(*loop, returns());
  say(std::string("returns: done ") + py(first.done()) + ", cancelled " + py(first.cancelled()));
  looplab::Task<void> second = looplab::create_task(*loop, waits(future));
  say(std::string("waits: done ") + py(second.done()) + "; its future cancelled " +
      py(future.cancelled()));
  co_await looplab::sleep(0s);
  say(std::string("waits: cancelled ") + py(second.cancelled()));
}

}  // namespace

LOOPLAB_SCENARIO(eager_task_cancels_itself_in_its_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 2);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: returns: cancel() -> True
// expect: turn 1: returns: done True, cancelled True
// expect: turn 1: waits: cancel() -> True
// expect: turn 1: waits: done False; its future cancelled True
// expect: turn 2: waits: CancelledError
// expect: turn 2: waits: cancelled True
