// Extension lab 05: the Event's contract. Each test states one rule of
// event.hpp, which is asyncio.Event's (CPython 3.13, Lib/asyncio/locks.py).
#include "looplab/lab/event.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/test_loop.hpp"

namespace looplab::lab {
namespace {

using testing::TestLoop;

TEST(Event, StartsUnsetAndWaitWaits) {
  TestLoop t;
  Event event(t.loop);
  EXPECT_FALSE(event.is_set());
  Future<bool> waiter = event.wait();
  t.turns(3);
  EXPECT_FALSE(waiter.done());
  EXPECT_EQ(event.repr(), "<Event [unset, waiters:1]>");
}

TEST(Event, WaitOnASetEventIsDoneAtOnceWithTrue) {
  TestLoop t;
  Event event(t.loop);
  event.set();
  EXPECT_TRUE(event.is_set());
  Future<bool> waiter = event.wait();
  ASSERT_TRUE(waiter.done()) << "no turn needed: the flag is set";
  EXPECT_TRUE(waiter.result());
  EXPECT_EQ(event.repr(), "<Event [set]>") << "nothing was queued";
}

TEST(Event, SetCompletesEveryWaiterWithTrue) {
  TestLoop t;
  Event event(t.loop);
  std::vector<Future<bool>> waiters = {event.wait(), event.wait(), event.wait()};
  event.set();
  for (const Future<bool>& waiter : waiters) {
    ASSERT_TRUE(waiter.done()) << "set() completes them itself, in this turn";
    EXPECT_TRUE(waiter.result());
  }
}

TEST(Event, WaitersCallbacksRunOneTurnLaterInTheOrderTheyStartedWaiting) {
  TestLoop t;
  Event event(t.loop);
  std::vector<std::string> order;
  for (const char* name : {"first", "second", "third"}) {
    event.wait().add_done_callback([&order, name](Future<bool>&) { order.emplace_back(name); });
  }
  event.set();
  EXPECT_TRUE(order.empty()) << "never inline";
  t.turn();
  EXPECT_EQ(order, (std::vector<std::string>{"first", "second", "third"}));
}

TEST(Event, SetSkipsACancelledWaiter) {
  TestLoop t;
  Event event(t.loop);
  Future<bool> before = event.wait();
  Future<bool> cancelled = event.wait();
  Future<bool> after = event.wait();
  cancelled.cancel();
  EXPECT_NO_THROW(event.set()) << "set_result() on a cancelled future raises InvalidStateError";
  EXPECT_TRUE(cancelled.cancelled());
  EXPECT_TRUE(before.done());
  EXPECT_TRUE(after.done()) << "the waiters after the cancelled one are woken too";
}

TEST(Event, SetOnASetEventChangesNothing) {
  TestLoop t;
  Event event(t.loop);
  Future<bool> waiter = event.wait();
  event.set();
  EXPECT_NO_THROW(event.set());  // the woken waiter is still queued until the next turn
  EXPECT_TRUE(event.is_set());
  EXPECT_TRUE(waiter.result());
}

TEST(Event, ASecondSetSkipsAWaiterTheFirstOneWoke) {
  TestLoop t;
  Event event(t.loop);
  Future<bool> waiter = event.wait();
  event.set();
  event.clear();
  EXPECT_NO_THROW(event.set()) << "the woken waiter is still queued: it is done, leave it";
  t.turn();
  EXPECT_TRUE(waiter.result());
}

TEST(Event, ClearMakesTheNextWaitWait) {
  TestLoop t;
  Event event(t.loop);
  event.set();
  event.clear();
  EXPECT_FALSE(event.is_set());
  Future<bool> waiter = event.wait();
  t.turns(2);
  EXPECT_FALSE(waiter.done());
  event.set();
  EXPECT_TRUE(waiter.done());
}

TEST(Event, ClearDoesNotTakeBackAWakeUp) {
  TestLoop t;
  Event event(t.loop);
  Future<bool> waiter = event.wait();
  event.set();
  event.clear();
  t.turn();
  EXPECT_TRUE(waiter.done());
  EXPECT_TRUE(waiter.result());
}

TEST(Event, AWaiterLeavesTheQueueOneTurnAfterItIsDone) {
  TestLoop t;
  Event event(t.loop);
  Future<bool> cancelled = event.wait();
  Future<bool> woken = event.wait();
  cancelled.cancel();
  EXPECT_EQ(event.repr(), "<Event [unset, waiters:2]>")
      << "as asyncio's, gone when its wait() ends";
  t.turn();
  EXPECT_EQ(event.repr(), "<Event [unset, waiters:1]>");
  event.set();
  t.turn();
  EXPECT_EQ(event.repr(), "<Event [set]>");
}

TEST(Event, WaitingAndCancellingOverAndOverLeavesNothingQueued) {
  TestLoop t;
  Event event(t.loop);
  for (int i = 0; i < 1000; ++i) event.wait().cancel();
  t.turn();
  EXPECT_EQ(event.repr(), "<Event [unset]>");
}

TEST(Event, AnEventDestroyedWithWaitersLeavesThemPending) {
  TestLoop t;
  Future<bool> waiter = [&] {
    Event event(t.loop);
    return event.wait();
  }();
  t.turn();
  EXPECT_FALSE(waiter.done());
  waiter.cancel();  // its callback runs after the event is gone
  t.turn();
  EXPECT_TRUE(waiter.cancelled());
}

}  // namespace
}  // namespace looplab::lab
