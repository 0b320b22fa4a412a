// Acquiring a free lock costs no turn; a waiter resumes one turn after release() and claims
// the lock then.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> a(looplab::Lock lock) {
  co_await lock.acquire();
  say(std::string("a acquired; locked() -> ") + py(lock.locked()));
  co_await looplab::sleep(std::chrono::seconds(0));
  lock.release();
  say(std::string("a released; locked() -> ") + py(lock.locked()));
}

looplab::Coro<void> b(looplab::Lock lock) {
  say("b waits");
  co_await lock.acquire();
  say(std::string("b acquired; locked() -> ") + py(lock.locked()));
  lock.release();
}

}  // namespace

LOOPLAB_SCENARIO(lock_acquire_costs_no_turn_when_free) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Lock lock;
  (void)looplab::create_task(loop, a(lock));
  (void)looplab::create_task(loop, b(lock));
  run_turns(loop, 3);
  say(std::string("locked() -> ") + py(lock.locked()));
  loop.close();
}

// expect: turn 1: a acquired; locked() -> True
// expect: turn 1: b waits
// expect: turn 2: a released; locked() -> False
// expect: turn 3: b acquired; locked() -> True
// expect: turn 3: locked() -> False
