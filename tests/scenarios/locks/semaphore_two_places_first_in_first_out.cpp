// Semaphore(2): two holders at a time, the others queue first in, first out; async with
// releases the place, which goes to the first waiter a turn later. Here the block is the scope of
// a SemaphoreGuard.
#include "looplab/semaphore.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> worker(std::string name, looplab::Semaphore places) {
  {
    looplab::SemaphoreGuard held = co_await places.guard();
    say(name + " holds a place");
    co_await looplab::sleep(std::chrono::seconds(0));
  }
  say(name + " released");
}

}  // namespace

LOOPLAB_SCENARIO(semaphore_two_places_first_in_first_out) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Semaphore places(2);
  for (const char* name : {"a", "b", "c", "d"})
    (void)looplab::create_task(loop, worker(name, places));
  run_turns(loop, 1);
  say(std::string("locked() -> ") + py(places.locked()));
  run_turns(loop, 3);
  say(std::string("locked() -> ") + py(places.locked()));
  loop.close();
}

// expect: turn 1: a holds a place
// expect: turn 1: b holds a place
// expect: turn 1: locked() -> True
// expect: turn 2: a released
// expect: turn 2: b released
// expect: turn 3: c holds a place
// expect: turn 3: d holds a place
// expect: turn 4: c released
// expect: turn 4: d released
// expect: turn 4: locked() -> False
