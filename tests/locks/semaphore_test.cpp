// asyncio.Semaphore and BoundedSemaphore (CPython 3.13, Lib/asyncio/locks.py),
// with coroutines: each test states one rule of looplab/semaphore.hpp.
#include "looplab/semaphore.hpp"

#include <gtest/gtest.h>

#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::Log;
using testing::TestLoop;
using testing::thrown_by;

Coro<void> takes(Semaphore places, std::string name, Log* log) {
  try {
    co_await places.acquire();
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
  log->push_back(name + " acquired");
}

TEST(Semaphore, AcquireTakesAFreePlaceWithoutATurn) {
  TestLoop t;
  Semaphore places(2);
  EXPECT_EQ(places.repr(), "<Semaphore [unlocked, value:2]>");
  Log log;
  Task<void> task = create_task(t.loop, takes(places, "a", &log));
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_FALSE(places.locked());
  EXPECT_EQ(places.repr(), "<Semaphore [unlocked, value:1]>");
}

TEST(Semaphore, WaitersGetPlacesFirstInFirstOut) {
  TestLoop t;
  Semaphore places(0);
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, takes(places, name, &log));
  t.turn();
  EXPECT_TRUE(places.locked());
  EXPECT_EQ(places.repr(), "<Semaphore [locked, waiters:3]>");
  places.release();
  places.release();
  t.turns(2);
  EXPECT_EQ(log, (Log{"a acquired", "b acquired"}));
  EXPECT_EQ(places.repr(), "<Semaphore [locked, waiters:1]>");
}

TEST(Semaphore, ANewcomerQueuesBehindAWaiterEvenWithAPlaceFree) {
  TestLoop t;
  Semaphore places(0);
  Log log;
  (void)create_task(t.loop, takes(places, "a", &log));
  t.turn();
  places.release();  // a is woken: its place is counted as taken
  places.release();  // a free place, but a is still queued
  EXPECT_TRUE(places.locked()) << "a queued waiter, not cancelled";
  (void)create_task(t.loop, takes(places, "newcomer", &log));
  t.turns(3);
  EXPECT_EQ(log, (Log{"a acquired", "newcomer acquired"}));
}

TEST(Semaphore, AWokenWaiterCancelledGivesItsPlaceToTheNext) {
  TestLoop t;
  Semaphore places(0);
  Log log;
  Task<void> a = create_task(t.loop, takes(places, "a", &log));
  (void)create_task(t.loop, takes(places, "b", &log));
  t.turn();
  places.release();
  EXPECT_TRUE(a.cancel());
  t.turns(3);
  EXPECT_EQ(log, (Log{"a cancelled", "b acquired"}));
  EXPECT_EQ(places.repr(), "<Semaphore [locked]>") << "b holds the one place";
}

TEST(Semaphore, ANegativeInitialValueIsAValueError) {
  EXPECT_EQ(thrown_by([] { Semaphore places(-1); }),
            "ValueError: Semaphore initial value must be >= 0");
}

TEST(BoundedSemaphore, ReleasingAboveTheInitialValueIsAValueErrorAndChangesNothing) {
  TestLoop t;
  BoundedSemaphore places(1);
  EXPECT_EQ(thrown_by([&] { places.release(); }),
            "ValueError: BoundedSemaphore released too many times");
  EXPECT_EQ(places.repr(), "<BoundedSemaphore [unlocked, value:1]>");
  (void)t.loop.run_until_complete(places.acquire());
  places.release();
  EXPECT_FALSE(places.locked());
}

Coro<void> holds_then_releases_by_hand(Semaphore places) {
  SemaphoreGuard held = co_await places.guard();
  places.release();  // asyncio's __aexit__ would then raise ValueError
}

TEST(SemaphoreGuard, ReleasesItsPlaceAtTheEndOfTheBlock) {
  TestLoop t;
  Semaphore places(1);
  t.loop.run_until_complete([](Semaphore held_places) -> Coro<void> {
    SemaphoreGuard held = co_await held_places.guard();
    EXPECT_TRUE(held_places.locked());
  }(places));
  EXPECT_EQ(places.repr(), "<Semaphore [unlocked, value:1]>");
}

TEST(SemaphoreGuard, ABoundedSemaphoreReleasedByHandIsLeftAlone) {
  TestLoop t;
  BoundedSemaphore places(1);
  Task<void> task = create_task(t.loop, holds_then_releases_by_hand(places));
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_FALSE(task.exception()) << "a destructor cannot raise";
  EXPECT_EQ(places.repr(), "<BoundedSemaphore [unlocked, value:1]>");
}

}  // namespace
}  // namespace looplab
