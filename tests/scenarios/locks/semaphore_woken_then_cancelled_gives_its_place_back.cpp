// A waiter that release() woke, cancelled before it resumes, gives its place back; the place
// goes to the next waiter. BoundedSemaphore refuses a release above its initial value.
#include <map>

#include "looplab/semaphore.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Semaphore places) {
  try {
    co_await places.acquire();
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled");
    throw;
  }
  say(name + " acquired");
}

}  // namespace

LOOPLAB_SCENARIO(semaphore_woken_then_cancelled_gives_its_place_back) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::BoundedSemaphore places(2);
  std::map<std::string, looplab::Task<void>> tasks;
  for (const char* name : {"a", "b", "c", "d"})
    tasks.emplace(name, looplab::create_task(loop, waiter(name, places)));
  run_turns(loop, 1);
  say(std::string("locked() -> ") + py(places.locked()));
  places.release();
  places.release();
  say("release() twice wakes c and d");
  say(std::string("c.cancel() -> ") + py(tasks.at("c").cancel()));
  run_turns(loop, 1);
  say(std::string("locked() -> ") + py(places.locked()));
  places.release();
  say("release(): both places free");
  try {
    places.release();
  } catch (const looplab::ValueError& error) {
    say(std::string("ValueError: ") + error.what());
  }
  try {
    looplab::Semaphore negative(-1);
  } catch (const looplab::ValueError& error) {
    say(std::string("ValueError: ") + error.what());
  }
  loop.close();
}

// expect: turn 1: a acquired
// expect: turn 1: b acquired
// expect: turn 1: locked() -> True
// expect: turn 1: release() twice wakes c and d
// expect: turn 1: c.cancel() -> True
// expect: turn 2: c cancelled
// expect: turn 2: d acquired
// expect: turn 2: locked() -> False
// expect: turn 2: release(): both places free
// expect: turn 2: ValueError: BoundedSemaphore released too many times
// expect: turn 2: ValueError: Semaphore initial value must be >= 0
