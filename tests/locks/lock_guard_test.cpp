// `LockGuard held = co_await lock.guard();`, looplab's `async with lock:`:
// the lock is released when the guard goes, however the block ends.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::Log;
using testing::TestLoop;

Coro<void> block(Lock lock, Log* log, Future<void> inside, bool fail) {
  LockGuard held = co_await lock.guard();
  log->push_back(std::string("inside; locked() -> ") + (lock.locked() ? "true" : "false"));
  co_await inside;
  if (fail) throw std::runtime_error("boom");
}

TEST(LockGuard, TheLockIsHeldInsideTheBlockAndReleasedAtItsEnd) {
  TestLoop t;
  Lock lock;
  Log log;
  Future<void> inside = t.loop.create_future<void>();
  Task<void> task = create_task(t.loop, block(lock, &log, inside, false));
  t.turn();
  EXPECT_EQ(log, Log{"inside; locked() -> true"});
  inside.set_result();
  t.turn();
  EXPECT_TRUE(task.done());
  EXPECT_FALSE(lock.locked());
}

TEST(LockGuard, AnExceptionLeavingTheBlockReleasesTheLock) {
  TestLoop t;
  Lock lock;
  Log log;
  Future<void> inside = t.loop.create_future<void>();
  Task<void> task = create_task(t.loop, block(lock, &log, inside, true));
  t.turn();
  inside.set_result();
  t.turn();
  EXPECT_EQ(testing::describe(task.exception()), "std::runtime_error: boom");
  EXPECT_FALSE(lock.locked());
}

TEST(LockGuard, ACancelledBlockReleasesTheLockAndTheNextWaiterGetsIt) {
  TestLoop t;
  Lock lock;
  Log log;
  Future<void> inside = t.loop.create_future<void>();
  Task<void> first = create_task(t.loop, block(lock, &log, inside, false));
  Future<void> second_inside = t.loop.create_future<void>();
  (void)create_task(t.loop, block(lock, &log, second_inside, false));
  t.turn();
  first.cancel();
  t.turns(2);
  EXPECT_TRUE(first.cancelled());
  EXPECT_EQ(log, (Log{"inside; locked() -> true", "inside; locked() -> true"}));
  EXPECT_TRUE(lock.locked()) << "held by the second block now";
}

Coro<void> releases_early(Lock lock, Log* log) {
  LockGuard held = co_await lock.guard();
  held.release();
  log->push_back(std::string("released early; locked() -> ") + (lock.locked() ? "true" : "false"));
  log->push_back(testing::thrown_by([&] { held.release(); }));
  co_await lock.acquire();  // held by hand now: the guard must leave it alone
}

TEST(LockGuard, ReleaseEndsTheHoldOnceAndTheGuardThenLeavesTheLockAlone) {
  TestLoop t;
  Lock lock;
  Log log;
  Task<void> task = create_task(t.loop, releases_early(lock, &log));
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_EQ(log, (Log{"released early; locked() -> false",
                      "RuntimeError: Guard::release(): the guard holds nothing"}));
  EXPECT_TRUE(lock.locked());
}

Coro<void> releases_by_hand(Lock lock) {
  LockGuard held = co_await lock.guard();
  lock.release();  // asyncio's __aexit__ would then raise RuntimeError
}

TEST(LockGuard, AGuardWhoseLockWasReleasedByHandDoesNothing) {
  TestLoop t;
  Lock lock;
  Task<void> task = create_task(t.loop, releases_by_hand(lock));
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_FALSE(task.exception()) << "a destructor cannot raise";
  EXPECT_FALSE(lock.locked());
}

}  // namespace
}  // namespace looplab
