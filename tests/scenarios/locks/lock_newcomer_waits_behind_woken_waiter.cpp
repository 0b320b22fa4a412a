// Fairness: between release() and the woken waiter's resumption the lock is unlocked, yet a
// newcomer that asks in between queues behind the woken waiter instead of taking it.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Lock lock) {
  say(name + " asks; locked() -> " + py(lock.locked()));
  co_await lock.acquire();
  say(name + " acquired");
  co_await looplab::sleep(std::chrono::seconds(0));
  lock.release();
  say(name + " released");
}

}  // namespace

LOOPLAB_SCENARIO(lock_newcomer_waits_behind_woken_waiter) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Lock lock;
  (void)loop.run_until_complete(lock.acquire());
  (void)looplab::create_task(loop, waiter("a", lock));
  run_turns(loop, 1);
  // Its first step comes before a's wakeup.
  (void)looplab::create_task(loop, waiter("newcomer", lock));
  lock.release();
  say(std::string("released; locked() -> ") + py(lock.locked()) + ", a is woken");
  run_turns(loop, 4);
  say(std::string("locked() -> ") + py(lock.locked()));
  loop.close();
}

// expect: turn 1: a asks; locked() -> True
// expect: turn 1: released; locked() -> False, a is woken
// expect: turn 2: newcomer asks; locked() -> False
// expect: turn 2: a acquired
// expect: turn 3: a released
// expect: turn 4: newcomer acquired
// expect: turn 5: newcomer released
// expect: turn 5: locked() -> False
