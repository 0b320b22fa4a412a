// Awaiting a coroutine runs it inline, in the same step of the same task: no turn.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> add_one(int x) {
  say("add_one(" + std::to_string(x) + ") runs");
  co_return x + 1;
}

looplab::Coro<int> add_two(int x) {
  int once = co_await add_one(x);
  co_return co_await add_one(once);
}

looplab::Coro<int> main_task() {
  say("main starts");
  int value = co_await add_two(0);
  say("main got " + std::to_string(value));
  co_return value;
}

}  // namespace

LOOPLAB_SCENARIO(await_coroutine_costs_no_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<int> task = looplab::create_task(loop, main_task());
  run_turns(loop, 1);
  say(std::string("main done: ") + looplab::testing::py(task.done()) + ", result " +
      std::to_string(task.result()));
  loop.close();
}

// expect: turn 1: main starts
// expect: turn 1: add_one(0) runs
// expect: turn 1: add_one(1) runs
// expect: turn 1: main got 2
// expect: turn 1: main done: True, result 2
