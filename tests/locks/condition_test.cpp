// asyncio.Condition (CPython 3.13, Lib/asyncio/locks.py), with coroutines:
// each test states one rule of looplab/condition.hpp.
#include "looplab/condition.hpp"

#include <gtest/gtest.h>

#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::Log;
using testing::TestLoop;
using testing::thrown_by;

Coro<void> waits(Condition condition, std::string name, Log* log) {
  LockGuard held = co_await condition.guard();
  try {
    co_await condition.wait();
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled, locked: " + (condition.locked() ? "yes" : "no"));
    throw;
  }
  log->push_back(name + " notified, locked: " + (condition.locked() ? "yes" : "no"));
}

Coro<void> notifies(Condition condition, std::ptrdiff_t n) {
  LockGuard held = co_await condition.guard();
  condition.notify(n);
}

TEST(Condition, WaitReleasesTheLockAndTakesItAgainBeforeItReturns) {
  TestLoop t;
  Condition condition;
  Log log;
  (void)create_task(t.loop, waits(condition, "a", &log));
  t.turn();
  EXPECT_FALSE(condition.locked()) << "wait() released the lock";
  EXPECT_EQ(condition.repr(), "<Condition [unlocked, waiters:1]>");
  (void)create_task(t.loop, notifies(condition, 1));
  t.turns(3);
  EXPECT_EQ(log, Log{"a notified, locked: yes"});
  EXPECT_EQ(condition.repr(), "<Condition [unlocked]>");
}

TEST(Condition, NotifyWakesTheFirstNWaitersAndNotifyAllTheRest) {
  TestLoop t;
  Condition condition;
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, waits(condition, name, &log));
  t.turn();
  (void)create_task(t.loop, notifies(condition, 2));
  t.turns(5);
  EXPECT_EQ(log, (Log{"a notified, locked: yes", "b notified, locked: yes"}));
  t.loop.run_until_complete([](Condition c) -> Coro<void> {
    LockGuard held = co_await c.guard();
    c.notify_all();
  }(condition));
  t.turns(3);
  EXPECT_EQ(log.back(), "c notified, locked: yes");
}

TEST(Condition, NotifyOfZeroOrANegativeCountWakesNobody) {
  TestLoop t;
  Condition condition;
  Log log;
  for (const char* name : {"a", "b"}) (void)create_task(t.loop, waits(condition, name, &log));
  t.turn();
  (void)create_task(t.loop, notifies(condition, 0));
  (void)create_task(t.loop, notifies(condition, -1));  // Python's int: not a huge count
  t.turns(5);
  EXPECT_EQ(log, Log{});
  EXPECT_EQ(condition.repr(), "<Condition [unlocked, waiters:2]>");
}

// Without a guard: a wait() that fails leaves the lock to its holder.
Coro<void> waits_unguarded(Condition condition, std::string name, Log* log) {
  co_await condition.acquire();
  co_await condition.wait();
  log->push_back(name + " notified, locked: " + (condition.locked() ? "yes" : "no"));
  condition.release();
}

// The lock, bound to another loop, refuses the woken waiter: its error
// leaves wait(), and the notify it took goes to the next waiter instead.
TEST(Condition, AnErrorWhileTakingTheLockBackPassesTheNotifyOn) {
  Lock lock;
  {
    TestLoop first;
    (void)first.loop.run_until_complete(lock.acquire());
    auto queued = create_task(first.loop, lock.acquire());  // binds the lock to `first`
    first.turn();
    queued.cancel();
    first.turns(2);
    lock.release();
  }
  TestLoop t;
  Condition condition(lock);
  Log log;
  Task<void> y = create_task(t.loop, waits_unguarded(condition, "y", &log));
  (void)create_task(t.loop, waits_unguarded(condition, "z", &log));
  t.turn();
  (void)t.loop.run_until_complete(condition.acquire());
  condition.notify(1);
  t.turn();
  ASSERT_TRUE(y.done());
  EXPECT_EQ(thrown_by([&] { y.result(); }),
            "RuntimeError: <Lock [locked]> is bound to a different event loop");
  EXPECT_EQ(condition.repr(), "<Condition [locked, waiters:1]>") << "y has left the queue";
  condition.release();
  t.turns(2);
  EXPECT_EQ(log, Log{"z notified, locked: yes"});
}

TEST(Condition, ACancelledWaitStillTakesTheLockAgain) {
  TestLoop t;
  Condition condition;
  Log log;
  Task<void> a = create_task(t.loop, waits(condition, "a", &log));
  t.turn();
  (void)t.loop.run_until_complete(condition.acquire());  // held by the test
  EXPECT_TRUE(a.cancel());
  t.turns(2);
  EXPECT_EQ(log, Log{}) << "a waits for the lock before its CancelledError leaves wait()";
  condition.release();
  t.turns(2);
  EXPECT_EQ(log, Log{"a cancelled, locked: yes"});
  EXPECT_TRUE(a.cancelled());
}

TEST(Condition, WaitForChecksThePredicateFirstAndReturnsItsValue) {
  TestLoop t;
  Condition condition;
  int value = 7;
  int result = t.loop.run_until_complete([](Condition c, int* v) -> Coro<int> {
    LockGuard held = co_await c.guard();
    auto read = [v] { return *v; };
    co_return co_await c.wait_for(read);
  }(condition, &value));
  EXPECT_EQ(result, 7) << "true at once: no wait";
}

TEST(Condition, WaitAndNotifyWithoutTheLockAreRuntimeErrors) {
  TestLoop t;
  Condition condition;
  EXPECT_EQ(thrown_by([&] { condition.notify(); }),
            "RuntimeError: cannot notify on un-acquired lock");
  EXPECT_EQ(thrown_by([&] { t.loop.run_until_complete(condition.wait()); }),
            "RuntimeError: cannot wait on un-acquired lock");
  EXPECT_FALSE(condition.locked());
}

TEST(Condition, SharesTheLockItIsGiven) {
  TestLoop t;
  Lock lock;
  Condition condition(lock);
  (void)t.loop.run_until_complete(lock.acquire());
  EXPECT_TRUE(condition.locked());
  condition.release();
  EXPECT_FALSE(lock.locked());
}

}  // namespace
}  // namespace looplab
