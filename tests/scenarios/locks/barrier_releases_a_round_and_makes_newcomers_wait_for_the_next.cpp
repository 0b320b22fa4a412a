// Barrier(3): the third arrival releases the round without waiting; each gets its index in
// arrival order; newcomers while the round drains wait for the next round.
#include "looplab/barrier.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> party(std::string name, looplab::Barrier meeting) {
  say(name + " arrives");
  int index = co_await meeting.wait();
  say(name + " passes with index " + std::to_string(index));
}

std::string state_of(const looplab::Barrier& meeting) {
  return "n_waiting " + std::to_string(meeting.n_waiting()) + ", " + meeting.repr();
}

}  // namespace

LOOPLAB_SCENARIO(barrier_releases_a_round_and_makes_newcomers_wait_for_the_next) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Barrier meeting(3);
  say(meeting.repr());
  for (const char* name : {"a", "b"}) (void)looplab::create_task(loop, party(name, meeting));
  run_turns(loop, 1);
  say(state_of(meeting));
  for (const char* name : {"c", "d", "e"}) (void)looplab::create_task(loop, party(name, meeting));
  run_turns(loop, 1);
  say(state_of(meeting));
  run_turns(loop, 3);
  say(state_of(meeting));
  (void)looplab::create_task(loop, party("f", meeting));
  run_turns(loop, 2);
  say(state_of(meeting));
  loop.close();
}

// expect: turn 0: <Barrier [filling, waiters:0/3]>
// expect: turn 1: a arrives
// expect: turn 1: b arrives
// expect: turn 1: n_waiting 2, <Barrier [filling, waiters:2/3]>
// expect: turn 2: c arrives
// expect: turn 2: c passes with index 2
// expect: turn 2: d arrives
// expect: turn 2: e arrives
// expect: turn 2: n_waiting 0, <Barrier [draining, waiters:0/3]>
// expect: turn 3: a passes with index 0
// expect: turn 3: b passes with index 1
// expect: turn 5: n_waiting 2, <Barrier [filling, waiters:2/3]>
// expect: turn 6: f arrives
// expect: turn 6: f passes with index 2
// expect: turn 7: d passes with index 0
// expect: turn 7: e passes with index 1
// expect: turn 7: n_waiting 0, <Barrier [filling, waiters:0/3]>
