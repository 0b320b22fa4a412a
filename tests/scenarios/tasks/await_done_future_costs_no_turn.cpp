// Awaiting a future that is already done does not suspend the task: no turn.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> main_task(looplab::Future<int> done, looplab::Future<int> pending) {
  say("main starts");
  int value = co_await done;
  say("awaited the done future: " + std::to_string(value));
  value = co_await pending;
  say("awaited the pending future: " + std::to_string(value));
}

}  // namespace

LOOPLAB_SCENARIO(await_done_future_costs_no_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Future<int> done = loop.create_future<int>();
  done.set_result(1);
  looplab::Future<int> pending = loop.create_future<int>();
  looplab::Task<void> task = looplab::create_task(loop, main_task(done, pending));
  run_turns(loop, 1);
  loop.call_soon([pending] {
    pending.set_result(2);
    say("pending future set");
  });
  run_turns(loop, 2);
  say(std::string("main done: ") + looplab::testing::py(task.done()));
  loop.close();
}

// expect: turn 1: main starts
// expect: turn 1: awaited the done future: 1
// expect: turn 2: pending future set
// expect: turn 3: awaited the pending future: 2
// expect: turn 3: main done: True
