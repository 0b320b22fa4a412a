// asyncio.Lock (CPython 3.13, Lib/asyncio/locks.py), with coroutines: each
// test states one rule of looplab/locks.hpp.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::hold_lock;
using testing::Log;
using testing::take_and_release;
using testing::TestLoop;
using testing::thrown_by;

TEST(Lock, AcquireOnAFreeLockTakesItWithoutATurn) {
  TestLoop t;
  Lock lock;
  Log log;
  Future<void> hold = t.loop.create_future<void>();
  (void)create_task(t.loop, hold_lock(lock, "a", &log, hold));
  t.turn();
  EXPECT_EQ(log, Log{"a acquired"}) << "in the task's first step";
  EXPECT_TRUE(lock.locked());
  EXPECT_EQ(lock.repr(), "<Lock [locked]>");
}

TEST(Lock, ReleasingALockThatIsNotLockedIsARuntimeError) {
  TestLoop t;
  Lock lock;
  EXPECT_EQ(thrown_by([&] { lock.release(); }), "RuntimeError: Lock is not acquired.");
  EXPECT_FALSE(lock.locked());
}

TEST(Lock, WaitersGetTheLockFirstInFirstOut) {
  TestLoop t;
  Lock lock;
  Log log;
  Future<void> hold = t.loop.create_future<void>();
  (void)create_task(t.loop, hold_lock(lock, "holder", &log, hold));
  for (const char* name : {"a", "b", "c"})
    (void)create_task(t.loop, take_and_release(lock, name, &log));
  t.turn();
  EXPECT_EQ(lock.repr(), "<Lock [locked, waiters:3]>");
  hold.set_result();
  t.turns(5);
  EXPECT_EQ(log, (Log{"holder acquired", "a acquired", "b acquired", "c acquired"}));
  EXPECT_FALSE(lock.locked());
  EXPECT_EQ(lock.repr(), "<Lock [unlocked]>");
}

TEST(Lock, TheWokenWaiterClaimsTheLockWhenItResumes) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  Future<void> hold = t.loop.create_future<void>();
  (void)create_task(t.loop, hold_lock(lock, "a", &log, hold));
  t.turn();
  lock.release();
  EXPECT_FALSE(lock.locked()) << "asyncio's _locked is False until the waiter resumes";
  EXPECT_EQ(lock.repr(), "<Lock [unlocked, waiters:1]>");
  t.turn();
  EXPECT_EQ(log, Log{"a acquired"});
  EXPECT_EQ(lock.repr(), "<Lock [locked]>");
}

TEST(Lock, ANewcomerWaitsBehindAWokenWaiter) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  (void)create_task(t.loop, take_and_release(lock, "a", &log));
  t.turn();
  lock.release();  // a is woken, not yet resumed: the lock is unlocked
  (void)create_task(t.loop, take_and_release(lock, "newcomer", &log));
  t.turns(3);
  EXPECT_EQ(log, (Log{"a acquired", "newcomer acquired"}));
}

TEST(Lock, ANewcomerTakesTheLockOverAQueueOfCancelledWaiters) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  Task<void> a = create_task(t.loop, take_and_release(lock, "a", &log));
  t.turn();
  Future<void> hold = t.loop.create_future<void>();
  // The newcomer's first step is queued before a's cancellation is delivered.
  (void)create_task(t.loop, hold_lock(lock, "newcomer", &log, hold));
  a.cancel();
  lock.release();
  t.turn();
  EXPECT_EQ(log, (Log{"newcomer acquired", "a cancelled"}))
      << "a was still queued, but cancelled: the newcomer took the lock at once";
  EXPECT_TRUE(lock.locked());
}

TEST(Lock, ACancelledWaiterPassesTheLockOn) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  Task<void> a = create_task(t.loop, take_and_release(lock, "a", &log));
  (void)create_task(t.loop, take_and_release(lock, "b", &log));
  t.turn();
  a.cancel();
  lock.release();  // a is first, and done (cancelled): nobody is woken now
  t.turn();        // a's CancelledError branch wakes b, the lock being free
  EXPECT_EQ(log, Log{"a cancelled"}) << "b was woken by a, not by release()";
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b acquired"}));
}

TEST(Lock, AWaiterWokenAndCancelledBeforeItResumesPassesTheLockOn) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  Task<void> a = create_task(t.loop, take_and_release(lock, "a", &log));
  (void)create_task(t.loop, take_and_release(lock, "b", &log));
  t.turn();
  lock.release();           // wakes a
  EXPECT_TRUE(a.cancel());  // before a resumes: its future is done, the task is not
  t.turns(3);
  EXPECT_EQ(log, (Log{"a cancelled", "b acquired"})) << "why asyncio claims after the await";
  EXPECT_TRUE(a.cancelled());
  EXPECT_FALSE(lock.locked());
}

TEST(Lock, ACancelledWaiterWakesNobodyWhileTheLockIsHeld) {
  TestLoop t;
  Lock lock;
  (void)t.loop.run_until_complete(lock.acquire());
  Log log;
  Task<void> a = create_task(t.loop, take_and_release(lock, "a", &log));
  (void)create_task(t.loop, take_and_release(lock, "b", &log));
  t.turn();
  a.cancel();
  t.turns(2);
  EXPECT_EQ(log, Log{"a cancelled"});
  EXPECT_EQ(lock.repr(), "<Lock [locked, waiters:1]>");
  lock.release();
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b acquired"}));
}

TEST(Lock, ATaskDestroyedByCloseLeavesTheQueue) {
  Lock lock;
  {
    TestLoop t;
    (void)t.loop.run_until_complete(lock.acquire());
    Log log;
    (void)create_task(t.loop, take_and_release(lock, "a", &log));
    t.turn();
    EXPECT_EQ(lock.repr(), "<Lock [locked, waiters:1]>");
    t.loop.close();
  }
  EXPECT_EQ(lock.repr(), "<Lock [locked]>");
}

TEST(Lock, ALockBelongsToTheFirstLoopThatQueuesAWaiter) {
  TestLoop first;
  TestLoop second;
  TestLoop third;
  Lock lock;
  EXPECT_TRUE(first.loop.run_until_complete(lock.acquire())) << "no waiter, no loop bound";
  lock.release();
  (void)second.loop.run_until_complete(lock.acquire());
  Task<bool> waiter = create_task(second.loop, lock.acquire());
  second.turn();
  lock.release();
  second.turn();
  EXPECT_TRUE(waiter.result()) << "bound to the second loop, the first to queue a waiter";
  Task<bool> other = create_task(third.loop, lock.acquire());
  third.turn();
  ASSERT_TRUE(other.done());
  EXPECT_EQ(testing::describe(other.exception()),
            "RuntimeError: <Lock [locked]> is bound to a different event loop");
}

TEST(Lock, ALaterLoopAtTheAddressOfTheBoundOneIsStillAnotherLoop) {
  Lock lock;
  std::optional<TestLoop> t;  // two loops, one after the other, at one address
  t.emplace();
  (void)t->loop.run_until_complete(lock.acquire());
  Task<bool> waiter = create_task(t->loop, lock.acquire());
  t->turn();  // queued: the lock is bound to this loop
  lock.release();
  t->turn();
  ASSERT_TRUE(waiter.done());
  t.reset();
  t.emplace();
  Task<bool> other = create_task(t->loop, lock.acquire());
  t->turn();
  ASSERT_TRUE(other.done());
  EXPECT_EQ(testing::describe(other.exception()),
            "RuntimeError: <Lock [locked]> is bound to a different event loop")
      << "as with two asyncio.run() calls in a row: the address is not the loop";
}

}  // namespace
}  // namespace looplab
