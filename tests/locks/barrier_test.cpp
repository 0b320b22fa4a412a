// asyncio.Barrier (CPython 3.12 and 3.13 agree, Lib/asyncio/locks.py), with
// coroutines: each test states one rule of looplab/barrier.hpp.
#include "looplab/barrier.hpp"

#include <gtest/gtest.h>

#include <string>

#include "locks/support.hpp"

namespace looplab {
namespace {

using testing::Log;
using testing::TestLoop;
using testing::thrown_by;

Coro<void> meets(Barrier meeting, std::string name, Log* log) {
  try {
    int index = co_await meeting.wait();
    log->push_back(name + " passes " + std::to_string(index));
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  } catch (const BrokenBarrierError& error) {
    log->push_back(name + " broken: " + error.what());
  }
}

TEST(Barrier, TheLastArrivalPassesFirstAndReleasesTheOthersATurnLater) {
  TestLoop t;
  Barrier meeting(3);
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, meets(meeting, name, &log));
  t.turn();
  EXPECT_EQ(log, (Log{"c passes 2"}));
  EXPECT_EQ(meeting.repr(), "<Barrier [draining, waiters:0/3]>");
  t.turn();
  EXPECT_EQ(log, (Log{"c passes 2", "a passes 0", "b passes 1"}));
  EXPECT_EQ(meeting.repr(), "<Barrier [filling, waiters:0/3]>");
}

TEST(Barrier, ACancelledWaiterLeavesTheRound) {
  TestLoop t;
  Barrier meeting(2);
  Log log;
  Task<void> first = create_task(t.loop, meets(meeting, "a", &log));
  t.turn();
  EXPECT_EQ(meeting.n_waiting(), 1);
  first.cancel();
  t.turn();
  EXPECT_EQ(meeting.n_waiting(), 0);
  for (const char* name : {"b", "c"}) (void)create_task(t.loop, meets(meeting, name, &log));
  t.turns(2);
  EXPECT_EQ(log, (Log{"a cancelled", "c passes 1", "b passes 0"}));
}

TEST(Barrier, ResetBreaksTheWaitersAndTheNextRoundFills) {
  TestLoop t;
  Barrier meeting(2);
  Log log;
  (void)create_task(t.loop, meets(meeting, "a", &log));
  t.turn();
  Task<void> reset = create_task(t.loop, meeting.reset());
  t.turns(3);
  EXPECT_TRUE(reset.done());
  EXPECT_EQ(log, (Log{"a broken: Abort or reset of barrier"}));
  EXPECT_FALSE(meeting.broken());
  for (const char* name : {"b", "c"}) (void)create_task(t.loop, meets(meeting, name, &log));
  t.turns(2);
  EXPECT_EQ(log, (Log{"a broken: Abort or reset of barrier", "c passes 1", "b passes 0"}));
}

TEST(Barrier, AbortBreaksEveryWaitNowAndLater) {
  TestLoop t;
  Barrier meeting(2);
  Log log;
  (void)create_task(t.loop, meets(meeting, "a", &log));
  t.turn();
  (void)create_task(t.loop, meeting.abort());
  t.turns(3);
  EXPECT_TRUE(meeting.broken());
  EXPECT_EQ(meeting.n_waiting(), 0);
  EXPECT_EQ(meeting.repr(), "<Barrier [broken]>");
  (void)create_task(t.loop, meets(meeting, "b", &log));
  t.turn();
  EXPECT_EQ(log, (Log{"a broken: Abort or reset of barrier", "b broken: Barrier aborted"}));
}

TEST(Barrier, CopiesShareOneBarrier) {
  TestLoop t;
  Barrier meeting(2);
  Barrier copy = meeting;
  Log log;
  (void)create_task(t.loop, meets(meeting, "a", &log));
  (void)create_task(t.loop, meets(copy, "b", &log));
  t.turns(2);
  EXPECT_EQ(log, (Log{"b passes 1", "a passes 0"}));
  EXPECT_EQ(copy.parties(), 2);
}

TEST(Barrier, FewerThanOnePartyIsAValueError) {
  EXPECT_EQ(thrown_by([] { Barrier none(0); }), "ValueError: parties must be > 0");
  EXPECT_EQ(thrown_by([] { Barrier negative(-1); }), "ValueError: parties must be > 0");
}

}  // namespace
}  // namespace looplab
