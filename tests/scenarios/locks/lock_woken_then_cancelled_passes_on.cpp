// A waiter that release() woke, cancelled before it resumes, does not keep the lock: its
// CancelledError branch wakes the next waiter. This is why asyncio claims the lock after the await.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Lock lock) {
  try {
    co_await lock.acquire();
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled; locked() -> " + py(lock.locked()));
    throw;
  }
  say(name + " acquired");
  lock.release();
}

}  // namespace

LOOPLAB_SCENARIO(lock_woken_then_cancelled_passes_on) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Lock lock;
  (void)loop.run_until_complete(lock.acquire());
  looplab::Task<void> a = looplab::create_task(loop, waiter("a", lock));
  (void)looplab::create_task(loop, waiter("b", lock));
  run_turns(loop, 1);
  lock.release();
  say(std::string("release() wakes a; locked() -> ") + py(lock.locked()));
  say(std::string("a.cancel() -> ") + py(a.cancel()));
  run_turns(loop, 2);
  say(std::string("a.cancelled() -> ") + py(a.cancelled()) + ", locked() -> " + py(lock.locked()));
  loop.close();
}

// expect: turn 1: release() wakes a; locked() -> False
// expect: turn 1: a.cancel() -> True
// expect: turn 2: a cancelled; locked() -> False
// expect: turn 3: b acquired
// expect: turn 3: a.cancelled() -> True, locked() -> False
