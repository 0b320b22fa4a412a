// A waiter cancelled while it waits leaves the queue a turn later; if the lock is free then,
// it wakes the next waiter; while the lock is held, it wakes nobody.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

// Takes the lock and keeps it: the scenario releases it.
looplab::Coro<void> waiter(std::string name, looplab::Lock lock) {
  try {
    co_await lock.acquire();
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled; locked() -> " + py(lock.locked()));
    throw;
  }
  say(name + " acquired");
}

}  // namespace

LOOPLAB_SCENARIO(lock_cancelled_waiter_is_skipped) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Lock lock;
  (void)loop.run_until_complete(lock.acquire());
  looplab::Task<void> a = looplab::create_task(loop, waiter("a", lock));
  (void)looplab::create_task(loop, waiter("b", lock));
  looplab::Task<void> c = looplab::create_task(loop, waiter("c", lock));
  (void)looplab::create_task(loop, waiter("d", lock));
  run_turns(loop, 1);
  a.cancel();
  lock.release();
  say("a cancelled and the lock released: the first waiter is done, nobody is woken");
  run_turns(loop, 2);
  c.cancel();
  say("c cancelled while b holds the lock");
  run_turns(loop, 2);
  lock.release();
  say("b's lock released");
  run_turns(loop, 1);
  loop.close();
}

// expect: turn 1: a cancelled and the lock released: the first waiter is done, nobody is woken
// expect: turn 2: a cancelled; locked() -> False
// expect: turn 3: b acquired
// expect: turn 3: c cancelled while b holds the lock
// expect: turn 4: c cancelled; locked() -> True
// expect: turn 5: b's lock released
// expect: turn 6: d acquired
