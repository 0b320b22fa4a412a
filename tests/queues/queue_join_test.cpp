// asyncio.Queue's task_done() and join(): its count of unfinished tasks
// (CPython 3.13, Lib/asyncio/queues.py).
#include <gtest/gtest.h>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::join_and_log;
using testing::Log;
using testing::TestLoop;
using testing::thrown_by;

TEST(TaskDone, CalledWithNothingUnfinishedRaisesValueError) {
  Queue<int> queue;
  EXPECT_EQ(thrown_by([&] { queue.task_done(); }), "ValueError: task_done() called too many times");
  queue.put_nowait(1);
  (void)queue.get_nowait();
  queue.task_done();
  EXPECT_EQ(thrown_by([&] { queue.task_done(); }), "ValueError: task_done() called too many times")
      << "one item put, one task done";
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0>");
}

TEST(TaskDone, CountsItemsPutNotItemsTaken) {
  Queue<int> queue;
  queue.put_nowait(1);
  queue.put_nowait(2);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 tasks=2>");
  queue.task_done();  // allowed before any get: the count is of items put
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 tasks=1>");
  EXPECT_EQ(queue.qsize(), 2U);
}

TEST(Join, ReturnsAtOnceWhenNothingIsUnfinished) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turn();
  EXPECT_EQ(log, Log{"j joined"}) << "in the task's first step";
}

TEST(Join, WaitsForATaskDoneForEveryItemPut) {
  TestLoop t;
  Queue<int> queue;
  queue.put_nowait(1);
  queue.put_nowait(2);
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turn();
  (void)queue.get_nowait();
  (void)queue.get_nowait();
  t.turns(2);
  EXPECT_TRUE(log.empty()) << "both items taken, neither done";
  queue.task_done();
  t.turns(2);
  EXPECT_TRUE(log.empty()) << "one task still unfinished";
  queue.task_done();
  EXPECT_TRUE(log.empty());
  t.turn();
  EXPECT_EQ(log, Log{"j joined"}) << "a turn after the last task_done()";
}

TEST(Join, EveryWaiterIsReleased) {
  TestLoop t;
  Queue<int> queue;
  queue.put_nowait(1);
  Log log;
  for (const char* name : {"a", "b"}) (void)create_task(t.loop, join_and_log(queue, name, &log));
  t.turn();
  (void)queue.get_nowait();
  queue.task_done();
  t.turn();
  EXPECT_EQ(log, (Log{"a joined", "b joined"}));
}

TEST(Join, APutAfterAllWasDoneMakesJoinWaitAgain) {
  TestLoop t;
  Queue<int> queue;
  queue.put_nowait(1);
  (void)queue.get_nowait();
  queue.task_done();
  queue.put_nowait(2);
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turns(2);
  EXPECT_TRUE(log.empty()) << "the new item is unfinished";
  (void)queue.get_nowait();
  queue.task_done();
  t.turn();
  EXPECT_EQ(log, Log{"j joined"});
}

}  // namespace
}  // namespace looplab
