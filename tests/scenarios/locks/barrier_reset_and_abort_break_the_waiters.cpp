// Barrier: reset() sends the waiters BrokenBarrierError and fills again once they left;
// abort() breaks it for the waiters and for every later wait().
#include "looplab/barrier.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> party(std::string name, looplab::Barrier meeting) {
  try {
    int index = co_await meeting.wait();
    say(name + " passes with index " + std::to_string(index));
  } catch (const looplab::BrokenBarrierError& error) {
    say(name + ": BrokenBarrierError: " + error.what());
  }
}

looplab::Coro<void> reset(looplab::Barrier meeting) {
  co_await meeting.reset();
  say("reset() done, " + meeting.repr());
}

looplab::Coro<void> abort(looplab::Barrier meeting) {
  co_await meeting.abort();
  say("abort() done, " + meeting.repr());
}

}  // namespace

LOOPLAB_SCENARIO(barrier_reset_and_abort_break_the_waiters) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Barrier meeting(3);
  for (const char* name : {"a", "b"}) (void)looplab::create_task(loop, party(name, meeting));
  run_turns(loop, 1);
  (void)looplab::create_task(loop, reset(meeting));
  run_turns(loop, 3);
  for (const char* name : {"c", "d"}) (void)looplab::create_task(loop, party(name, meeting));
  run_turns(loop, 1);
  say("n_waiting " + std::to_string(meeting.n_waiting()));
  (void)looplab::create_task(loop, abort(meeting));
  run_turns(loop, 3);
  (void)looplab::create_task(loop, party("e", meeting));
  run_turns(loop, 1);
  say(std::string("broken ") + py(meeting.broken()) + ", " + meeting.repr());
  try {
    looplab::Barrier none(0);
  } catch (const looplab::ValueError& error) {
    say(std::string("Barrier(0): ValueError: ") + error.what());
  }
  loop.close();
}

// expect: turn 2: reset() done, <Barrier [resetting, waiters:0/3]>
// expect: turn 3: a: BrokenBarrierError: Abort or reset of barrier
// expect: turn 3: b: BrokenBarrierError: Abort or reset of barrier
// expect: turn 5: n_waiting 2
// expect: turn 6: abort() done, <Barrier [broken]>
// expect: turn 7: c: BrokenBarrierError: Abort or reset of barrier
// expect: turn 7: d: BrokenBarrierError: Abort or reset of barrier
// expect: turn 9: e: BrokenBarrierError: Barrier aborted
// expect: turn 9: broken True, <Barrier [broken]>
// expect: turn 9: Barrier(0): ValueError: parties must be > 0
