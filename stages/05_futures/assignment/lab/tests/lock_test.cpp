// Extension lab 05: the Lock's contract. Each test states one rule of
// lock.hpp, which is asyncio.Lock's (CPython 3.13, Lib/asyncio/locks.py).
#include "looplab/lab/lock.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "looplab/exceptions.hpp"
#include "support/test_loop.hpp"

namespace looplab::lab {
namespace {

using testing::TestLoop;
using testing::thrown_by;

TEST(Lock, StartsUnlocked) {
  TestLoop t;
  Lock lock(t.loop);
  EXPECT_FALSE(lock.locked());
  EXPECT_EQ(lock.repr(), "<Lock [unlocked]>");
}

TEST(Lock, AcquireOnAFreeLockTakesItAtOnce) {
  TestLoop t;
  Lock lock(t.loop);
  Future<bool> held = lock.acquire();
  EXPECT_TRUE(lock.locked()) << "held as acquire() returns";
  ASSERT_TRUE(held.done());
  EXPECT_TRUE(held.result());
  EXPECT_EQ(lock.repr(), "<Lock [locked]>") << "nothing was queued";
}

TEST(Lock, AcquireOnAHeldLockWaits) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> waiter = lock.acquire();
  t.turns(3);
  EXPECT_FALSE(waiter.done());
  EXPECT_EQ(lock.repr(), "<Lock [locked, waiters:1]>");
}

TEST(Lock, ReleasingALockThatIsNotLockedIsARuntimeErrorAndChangesNothing) {
  TestLoop t;
  Lock lock(t.loop);
  EXPECT_EQ(thrown_by([&] { lock.release(); }), "RuntimeError: Lock is not acquired.");
  EXPECT_FALSE(lock.locked());
  EXPECT_TRUE(lock.acquire().done()) << "still usable";
  lock.release();
  EXPECT_EQ(thrown_by([&] { lock.release(); }), "RuntimeError: Lock is not acquired.")
      << "released twice";
}

TEST(Lock, ReleaseWakesOnlyTheFirstWaiter) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> first = lock.acquire();
  Future<bool> second = lock.acquire();
  lock.release();
  ASSERT_TRUE(first.done());
  EXPECT_TRUE(first.result());
  EXPECT_FALSE(second.done());
}

TEST(Lock, TheWokenWaiterClaimsTheLockOneTurnLaterBeforeTheCallersCallbacks) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> waiter = lock.acquire();
  std::vector<bool> seen;
  waiter.add_done_callback([&](Future<bool>&) { seen.push_back(lock.locked()); });
  lock.release();
  EXPECT_FALSE(lock.locked()) << "asyncio's _locked is False until the waiter resumes";
  t.turn();
  EXPECT_EQ(seen, std::vector<bool>{true}) << "the caller's callback finds the lock held";
  EXPECT_EQ(lock.repr(), "<Lock [locked]>") << "and the waiter out of the queue";
}

TEST(Lock, WaitersAreServedFirstInFirstOut) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  std::vector<std::string> order;
  for (const char* name : {"a", "b", "c"}) {
    lock.acquire().add_done_callback([&lock, &order, name](Future<bool>&) {
      order.emplace_back(name);
      lock.release();
    });
  }
  lock.release();
  t.turns(3);
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_FALSE(lock.locked());
}

TEST(Lock, ANewcomerWaitsBehindAWokenWaiterThatHasNotClaimedTheLock) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> woken = lock.acquire();
  lock.release();
  ASSERT_FALSE(lock.locked());
  Future<bool> newcomer = lock.acquire();
  EXPECT_FALSE(newcomer.done()) << "no fast path: a waiter that is not cancelled is queued";
  t.turn();
  EXPECT_TRUE(lock.locked());
  EXPECT_FALSE(newcomer.done());
  lock.release();
  EXPECT_TRUE(newcomer.done());
}

TEST(Lock, TheFastPathJumpsAQueueOfCancelledWaitersOnly) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> cancelled = lock.acquire();
  cancelled.cancel();
  lock.release();
  EXPECT_EQ(lock.repr(), "<Lock [unlocked, waiters:1]>") << "still queued until the next turn";
  Future<bool> newcomer = lock.acquire();
  EXPECT_TRUE(newcomer.done()) << "every queued waiter is cancelled: take the lock";
  EXPECT_TRUE(lock.locked());
}

TEST(Lock, ACancelledWaiterIsSkippedAndTheLockPassesToTheNext) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> cancelled = lock.acquire();
  Future<bool> next = lock.acquire();
  cancelled.cancel();
  lock.release();  // the first waiter is done (cancelled): nobody is woken yet
  EXPECT_FALSE(next.done());
  t.turn();  // the cancelled waiter's turn: the lock is free, so it wakes the next
  ASSERT_TRUE(next.done());
  EXPECT_FALSE(lock.locked());
  t.turn();
  EXPECT_TRUE(lock.locked()) << "claimed by the next waiter";
  EXPECT_EQ(lock.repr(), "<Lock [locked]>");
}

TEST(Lock, ACancelledWaiterWakesNobodyWhileTheLockIsHeld) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> cancelled = lock.acquire();
  Future<bool> next = lock.acquire();
  cancelled.cancel();
  t.turns(2);
  EXPECT_FALSE(next.done()) << "the lock is held: the next waiter keeps waiting";
  EXPECT_EQ(lock.repr(), "<Lock [locked, waiters:1]>");
  lock.release();
  EXPECT_TRUE(next.done());
}

TEST(Lock, AWokenWaiterCannotBeCancelledAndGetsTheLock) {
  TestLoop t;
  Lock lock(t.loop);
  (void)lock.acquire();
  Future<bool> waiter = lock.acquire();
  Future<bool> next = lock.acquire();
  lock.release();
  EXPECT_FALSE(waiter.cancel()) << "its future is done: too late to give up";
  t.turn();
  EXPECT_TRUE(lock.locked());
  EXPECT_FALSE(next.done());
}

TEST(Lock, ALockDestroyedWithWaitersLeavesThemPending) {
  TestLoop t;
  Future<bool> waiter = [&] {
    Lock lock(t.loop);
    (void)lock.acquire();
    return lock.acquire();
  }();
  t.turn();
  EXPECT_FALSE(waiter.done());
  waiter.cancel();  // its callback runs after the lock is gone
  t.turn();
  EXPECT_TRUE(waiter.cancelled());
}

}  // namespace
}  // namespace looplab::lab
