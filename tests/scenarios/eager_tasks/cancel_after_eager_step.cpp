// cancel() on a task that finished in its eager step returns False and changes nothing; one that
// suspended in it is cancelled as any waiting task.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> quick() { co_return 1; }

looplab::Coro<void> slow() {
  co_await looplab::sleep(0s);
  say("slow resumes");  // never printed: cancelled first
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<int> finished = looplab::create_task(*loop, quick());
  looplab::Task<void> waiting = looplab::create_task(*loop, slow());
  say(std::string("finished: cancel() -> ") + py(finished.cancel()) + "; result " +
      std::to_string(finished.result()));
  say(std::string("waiting: cancel() -> ") + py(waiting.cancel()));
  try {
    co_await waiting;
  } catch (const looplab::CancelledError&) {
    say(std::string("waiting: cancelled ") + py(waiting.cancelled()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancel_after_eager_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 3);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: finished: cancel() -> False; result 1
// expect: turn 1: waiting: cancel() -> True
// expect: turn 3: waiting: cancelled True
