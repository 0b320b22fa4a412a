// Newcomers queue behind a woken waiter even with places free (first in, first out); when the
// woken waiter resumes it wakes one newcomer per free place (CPython 3.13; 3.12.1 woke only one).
#include "looplab/semaphore.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Semaphore places) {
  co_await places.acquire();
  say(name + " acquired");
}

void release_three_times(looplab::Semaphore places) {
  places.release();
  places.release();
  places.release();
  say(std::string("release() three times wakes a; locked() -> ") + py(places.locked()));
}

}  // namespace

LOOPLAB_SCENARIO(semaphore_resumed_waiter_wakes_one_newcomer_per_free_place) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Semaphore places(0);
  (void)looplab::create_task(loop, waiter("a", places));
  run_turns(loop, 1);
  loop.call_soon([places] { release_three_times(places); });
  for (const char* name : {"x", "y", "z"}) (void)looplab::create_task(loop, waiter(name, places));
  run_turns(loop, 1);
  say(std::string("x, y and z queued behind a; locked() -> ") + py(places.locked()));
  run_turns(loop, 2);
  say(std::string("locked() -> ") + py(places.locked()));
  places.release();
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.13
// expect: turn 2: release() three times wakes a; locked() -> True
// expect: turn 2: x, y and z queued behind a; locked() -> True
// expect: turn 3: a acquired
// expect: turn 4: x acquired
// expect: turn 4: y acquired
// expect: turn 4: locked() -> True
// expect: turn 5: z acquired
