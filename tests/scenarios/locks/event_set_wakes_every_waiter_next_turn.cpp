// set() wakes every waiter, each resuming one turn later in the order they began to wait; wait()
// on a set event costs no turn; clear() makes wait() wait again.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Event event) {
  say(name + " waits");
  co_await event.wait();
  say(name + " woke; is_set() -> " + py(event.is_set()));
}

}  // namespace

LOOPLAB_SCENARIO(event_set_wakes_every_waiter_next_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Event event;
  for (const char* name : {"a", "b", "c"}) (void)looplab::create_task(loop, waiter(name, event));
  run_turns(loop, 1);
  event.set();
  say("set()");
  run_turns(loop, 1);
  (void)looplab::create_task(loop, waiter("d", event));
  run_turns(loop, 1);
  event.clear();
  (void)looplab::create_task(loop, waiter("e", event));
  run_turns(loop, 2);
  event.set();
  say("set() again");
  run_turns(loop, 1);
  loop.close();
}

// expect: turn 1: a waits
// expect: turn 1: b waits
// expect: turn 1: c waits
// expect: turn 1: set()
// expect: turn 2: a woke; is_set() -> True
// expect: turn 2: b woke; is_set() -> True
// expect: turn 2: c woke; is_set() -> True
// expect: turn 3: d waits
// expect: turn 3: d woke; is_set() -> True
// expect: turn 4: e waits
// expect: turn 5: set() again
// expect: turn 6: e woke; is_set() -> True
