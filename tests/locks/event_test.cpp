// asyncio.Event (CPython 3.13, Lib/asyncio/locks.py), with coroutines: each
// test states one rule of looplab/locks.hpp.
#include <gtest/gtest.h>

#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::Log;
using testing::TestLoop;

Coro<void> waits(Event event, std::string name, Log* log) {
  try {
    bool value = co_await event.wait();
    log->push_back(name + " woke with " + (value ? "true" : "false"));
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
}

TEST(Event, WaitOnASetEventReturnsTrueWithoutATurn) {
  TestLoop t;
  Event event;
  event.set();
  Log log;
  Task<void> task = create_task(t.loop, waits(event, "a", &log));
  EXPECT_EQ(t.turns_until_done(task), 1) << "the task's first step runs to its end";
  EXPECT_EQ(log, Log{"a woke with true"});
  EXPECT_EQ(event.repr(), "<Event [set]>") << "nothing was queued";
}

TEST(Event, SetWakesEveryWaiterInTheOrderTheyBeganToWait) {
  TestLoop t;
  Event event;
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, waits(event, name, &log));
  t.turn();
  EXPECT_EQ(event.repr(), "<Event [unset, waiters:3]>");
  event.set();
  t.turn();
  EXPECT_EQ(log, (Log{"a woke with true", "b woke with true", "c woke with true"}));
  EXPECT_EQ(event.repr(), "<Event [set]>") << "each left the queue as it resumed";
}

TEST(Event, SetSkipsACancelledWaiter) {
  TestLoop t;
  Event event;
  Log log;
  Task<void> a = create_task(t.loop, waits(event, "a", &log));
  Task<void> b = create_task(t.loop, waits(event, "b", &log));
  t.turn();
  b.cancel();
  EXPECT_NO_THROW(event.set());
  t.turn();
  EXPECT_EQ(log, (Log{"b cancelled", "a woke with true"})) << "b's wakeup was queued first";
  EXPECT_TRUE(b.cancelled());
  EXPECT_TRUE(a.done());
}

TEST(Event, ASecondSetSkipsAWaiterTheFirstOneWoke) {
  TestLoop t;
  Event event;
  Log log;
  (void)create_task(t.loop, waits(event, "a", &log));
  t.turn();
  event.set();
  event.clear();
  EXPECT_NO_THROW(event.set()) << "a is still queued, woken: set_result() would raise";
  t.turn();
  EXPECT_EQ(log, Log{"a woke with true"});
}

TEST(Event, ClearMakesWaitWaitAndDoesNotTakeBackAWakeUp) {
  TestLoop t;
  Event event;
  Log log;
  (void)create_task(t.loop, waits(event, "a", &log));
  t.turn();
  event.set();
  event.clear();
  EXPECT_FALSE(event.is_set());
  (void)create_task(t.loop, waits(event, "b", &log));
  t.turns(3);
  EXPECT_EQ(log, Log{"a woke with true"}) << "b waits for the next set()";
  event.set();
  t.turn();
  EXPECT_EQ(log, (Log{"a woke with true", "b woke with true"}));
}

TEST(Event, CopiesShareOneEvent) {
  TestLoop t;
  Event event;
  Event copy = event;  // NOLINT(performance-unnecessary-copy-initialization): the point
  Log log;
  (void)create_task(t.loop, waits(copy, "a", &log));
  t.turn();
  event.set();
  EXPECT_TRUE(copy.is_set());
  t.turn();
  EXPECT_EQ(log, Log{"a woke with true"});
}

TEST(Event, AWaiterKeepsWaitingAfterEveryHandleIsGone) {
  TestLoop t;
  Log log;
  Task<void> task = create_task(t.loop, waits(Event(), "a", &log));
  t.turn();
  EXPECT_FALSE(task.done());
  task.cancel();
  t.turn();
  EXPECT_EQ(log, Log{"a cancelled"}) << "its frame held the event";
}

TEST(Event, ATaskDestroyedByCloseLeavesTheQueue) {
  Event event;
  {
    TestLoop t;
    Log log;
    (void)create_task(t.loop, waits(event, "a", &log));
    t.turn();
    EXPECT_EQ(event.repr(), "<Event [unset, waiters:1]>");
    t.loop.close();  // destroys the pending task's frame
  }
  EXPECT_EQ(event.repr(), "<Event [unset]>") << "no future outlives its loop";
}

TEST(Event, AnEventBelongsToTheFirstLoopThatWaitsInIt) {
  TestLoop first;
  TestLoop second;
  Event event;
  Log log;
  (void)create_task(first.loop, waits(event, "a", &log));
  first.turn();
  Task<bool> task = create_task(second.loop, event.wait());
  second.turn();
  ASSERT_TRUE(task.done());
  EXPECT_EQ(testing::describe(task.exception()),
            "RuntimeError: <Event [unset, waiters:1]> is bound to a different event loop");
  event.set();
  Task<bool> at_once = create_task(second.loop, event.wait());
  second.turn();
  EXPECT_TRUE(at_once.result()) << "a set event needs no loop: asyncio asks for none either";
  first.turn();
  EXPECT_EQ(log, Log{"a woke with true"});
}

}  // namespace
}  // namespace looplab
