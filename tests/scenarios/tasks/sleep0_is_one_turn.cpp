// sleep(0) is one bare yield: the task runs again in the next turn, behind what is queued.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> worker(std::string name) {
  for (int step = 1; step < 4; ++step) {
    say(name + " step " + std::to_string(step));
    co_await looplab::sleep(0s);
  }
  say(name + " finished");
}

}  // namespace

LOOPLAB_SCENARIO(sleep0_is_one_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> a = looplab::create_task(loop, worker("a"));
  looplab::Task<void> b = looplab::create_task(loop, worker("b"));
  run_turns(loop, 4);
  say(std::string("both done: ") + looplab::testing::py(a.done() && b.done()) +
      "; timers used: " + std::to_string(loop.scheduled_count()));
  loop.close();
}

// expect: turn 1: a step 1
// expect: turn 1: b step 1
// expect: turn 2: a step 2
// expect: turn 2: b step 2
// expect: turn 3: a step 3
// expect: turn 3: b step 3
// expect: turn 4: a finished
// expect: turn 4: b finished
// expect: turn 4: both done: True; timers used: 0
