// A done callback added to a task that finished in its eager step runs one turn later, as on any
// done future, in FIFO order with the other callbacks.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> child() { co_return 1; }

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<int> task = looplab::create_task(*loop, child());
  task.add_done_callback([](looplab::Future<int>&) { say("done callback runs"); });
  say(std::string("callback added; child done: ") + py(task.done()));
  co_await looplab::sleep(0s);
  say("main resumes after sleep(0)");
}

}  // namespace

LOOPLAB_SCENARIO(done_callback_of_eager_task_runs_next_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 2);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: callback added; child done: True
// expect: turn 2: done callback runs
// expect: turn 2: main resumes after sleep(0)
