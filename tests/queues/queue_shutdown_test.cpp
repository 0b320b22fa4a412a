// asyncio.Queue's shutdown(), new in CPython 3.13 (Lib/asyncio/queues.py):
// what it does to puts, gets, the blocked waiters and join().
#include <gtest/gtest.h>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::consume;
using testing::join_and_log;
using testing::Log;
using testing::produce;
using testing::TestLoop;
using testing::thrown_by;

TEST(Shutdown, PutsRaiseQueueShutDownEvenWithRoom) {
  TestLoop t;
  Queue<int> queue(2);
  queue.put_nowait(1);
  queue.shutdown();
  EXPECT_TRUE(queue.is_shutdown());
  EXPECT_THROW(queue.put_nowait(2), QueueShutDown);
  Log log;
  (void)create_task(t.loop, produce(queue, 3, "p", &log));
  t.turn();
  EXPECT_EQ(log, Log{"p QueueShutDown"});
  EXPECT_EQ(queue.repr(), "<Queue maxsize=2 tasks=1 shutdown>");
}

TEST(Shutdown, PutNowaitOnAFullQueueThatIsShutDownRaisesQueueShutDown) {
  Queue<int> queue(1);
  queue.put_nowait(1);
  queue.shutdown();
  EXPECT_THROW(queue.put_nowait(2), QueueShutDown) << "not QueueFull";
}

TEST(Shutdown, GetsReturnTheItemsLeftThenRaiseQueueShutDown) {
  TestLoop t;
  Queue<int> queue;
  for (int item : {1, 2}) queue.put_nowait(item);
  queue.shutdown();
  EXPECT_EQ(queue.get_nowait(), 1);
  Log log;
  (void)create_task(t.loop, consume(queue, "a", &log));
  (void)create_task(t.loop, consume(queue, "b", &log));
  t.turn();
  EXPECT_EQ(log, (Log{"a got 2", "b QueueShutDown"})) << "b raises instead of waiting";
  EXPECT_THROW((void)queue.get_nowait(), QueueShutDown) << "not QueueEmpty";
}

TEST(Shutdown, WakesEveryBlockedGetterAndEachRaises) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, consume(queue, name, &log));
  t.turn();
  queue.shutdown();
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 shutdown>") << "both lines emptied at once";
  t.turn();
  EXPECT_EQ(log, (Log{"a QueueShutDown", "b QueueShutDown", "c QueueShutDown"}));
}

TEST(Shutdown, WakesEveryBlockedPutterAndEachRaisesWithoutPutting) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  (void)create_task(t.loop, produce(queue, 2, "a", &log));
  (void)create_task(t.loop, produce(queue, 3, "b", &log));
  t.turn();
  queue.shutdown();
  t.turn();
  EXPECT_EQ(log, (Log{"a QueueShutDown", "b QueueShutDown"}));
  EXPECT_EQ(queue.qsize(), 1U);
  EXPECT_EQ(queue.get_nowait(), 1);
}

TEST(Shutdown, APutterWokenByAGetThatResumesAfterShutdownRaises) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  (void)create_task(t.loop, produce(queue, 2, "p", &log));
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 1);  // wakes p: there is room now
  queue.shutdown();
  t.turn();
  EXPECT_EQ(log, Log{"p QueueShutDown"}) << "room, but the queue is shut down";
  EXPECT_TRUE(queue.empty());
}

TEST(Shutdown, LeavesJoinWaitingUntilEveryTaskIsDone) {
  TestLoop t;
  Queue<int> queue;
  queue.put_nowait(1);
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turn();
  queue.shutdown();
  t.turns(2);
  EXPECT_TRUE(log.empty()) << "the item is still there, unfinished";
  (void)queue.get_nowait();
  queue.task_done();
  t.turn();
  EXPECT_EQ(log, Log{"j joined"});
}

TEST(ShutdownImmediate, DiscardsTheItemsLeftSoGetsRaiseAtOnce) {
  TestLoop t;
  Queue<int> queue;
  for (int item : {1, 2, 3}) queue.put_nowait(item);
  queue.shutdown(true);
  EXPECT_TRUE(queue.empty());
  EXPECT_THROW((void)queue.get_nowait(), QueueShutDown);
  Log log;
  (void)create_task(t.loop, consume(queue, "a", &log));
  t.turn();
  EXPECT_EQ(log, Log{"a QueueShutDown"});
}

TEST(ShutdownImmediate, CountsEachDiscardedItemAsATaskDone) {
  TestLoop t;
  Queue<int> queue;
  for (int item : {1, 2, 3}) queue.put_nowait(item);
  EXPECT_EQ(queue.get_nowait(), 1);  // taken, not done
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turn();
  queue.shutdown(true);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 tasks=1 shutdown>") << "2 and 3 discarded and done";
  t.turns(2);
  EXPECT_TRUE(log.empty()) << "item 1 is still unfinished";
  queue.task_done();
  t.turn();
  EXPECT_EQ(log, Log{"j joined"});
  EXPECT_EQ(thrown_by([&] { queue.task_done(); }), "ValueError: task_done() called too many times");
}

TEST(ShutdownImmediate, ReleasesJoinWhenNothingIsLeftUnfinished) {
  TestLoop t;
  Queue<int> queue;
  for (int item : {1, 2}) queue.put_nowait(item);
  Log log;
  (void)create_task(t.loop, join_and_log(queue, "j", &log));
  t.turn();
  queue.shutdown(true);
  t.turn();
  EXPECT_EQ(log, Log{"j joined"});
}

TEST(ShutdownImmediate, NeverCountsBelowZero) {
  Queue<int> queue;
  for (int item : {1, 2}) queue.put_nowait(item);
  queue.task_done();
  queue.task_done();  // both done before they were taken
  queue.shutdown(true);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 shutdown>");
  EXPECT_THROW(queue.task_done(), ValueError);
}

TEST(ShutdownImmediate, WakesBlockedGettersAndPutters) {
  TestLoop t;
  Queue<int> empty;
  Queue<int> full(1);
  full.put_nowait(1);
  Log log;
  (void)create_task(t.loop, consume(empty, "g", &log));
  (void)create_task(t.loop, produce(full, 2, "p", &log));
  t.turn();
  empty.shutdown(true);
  full.shutdown(true);
  t.turn();
  EXPECT_EQ(log, (Log{"g QueueShutDown", "p QueueShutDown"}));
  EXPECT_TRUE(full.empty());
}

}  // namespace
}  // namespace looplab
