// A Condition waiter notified and then cancelled passes the notification on to the next
// waiter, and still takes the lock again before its CancelledError leaves wait().
#include "looplab/condition.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waiter(std::string name, looplab::Condition condition) {
  looplab::LockGuard held = co_await condition.guard();
  try {
    co_await condition.wait();
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled, holding the lock: " + py(condition.locked()));
    throw;
  }
  say(name + " notified");
}

looplab::Coro<void> notify_one(looplab::Condition condition, looplab::Task<void> a) {
  looplab::LockGuard held = co_await condition.guard();
  condition.notify();
  say(std::string("notify() wakes a; a.cancel() -> ") + py(a.cancel()));
}

}  // namespace

LOOPLAB_SCENARIO(condition_notified_then_cancelled_passes_the_notification_on) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Condition condition;
  looplab::Task<void> a = looplab::create_task(loop, waiter("a", condition));
  (void)looplab::create_task(loop, waiter("b", condition));
  run_turns(loop, 1);
  loop.run_until_complete(notify_one(condition, a));
  run_turns(loop, 3);
  say(std::string("a.cancelled() -> ") + py(a.cancelled()) + ", locked() -> " +
      py(condition.locked()));
  loop.close();
}

// requires-python: 3.13
// expect: turn 1: notify() wakes a; a.cancel() -> True
// expect: turn 1: a cancelled, holding the lock: True
// expect: turn 2: b notified
// expect: turn 4: a.cancelled() -> True, locked() -> False
