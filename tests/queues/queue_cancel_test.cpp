// asyncio.Queue: what cancelling a task that waits in put() or get() does
// to the lines of waiters, one rule per test: asyncio.Queue's `except:`
// branches (CPython 3.13, Lib/asyncio/queues.py). Also a queue's loop, and a
// task destroyed while it waits.
#include <gtest/gtest.h>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::consume;
using testing::describe;
using testing::Log;
using testing::produce;
using testing::TestLoop;

TEST(Queue, ACancelledGetterLeavesTheLine) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  Task<void> a = create_task(t.loop, consume(queue, "a", &log));
  t.turn();
  EXPECT_TRUE(a.cancel());
  t.turn();
  EXPECT_EQ(log, Log{"a cancelled"});
  EXPECT_TRUE(a.cancelled());
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0>");
  queue.put_nowait(1);
  EXPECT_EQ(queue.qsize(), 1U) << "nobody took the item";
}

TEST(Queue, APutWakesTheFirstGetterThatIsNotCancelled) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  Task<void> a = create_task(t.loop, consume(queue, "a", &log));
  for (const char* name : {"b", "c"}) (void)create_task(t.loop, consume(queue, name, &log));
  t.turn();
  a.cancel();
  queue.put_nowait(1);  // a's future is cancelled, still first in line: passed over
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b got 1"}));
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[1] tasks=1>")
      << "a was never woken: its cancellation wakes nobody, c still waits";
}

TEST(Queue, AGetterWokenThenCancelledPassesTheItemOn) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  Task<void> a = create_task(t.loop, consume(queue, "a", &log));
  (void)create_task(t.loop, consume(queue, "b", &log));
  t.turn();
  queue.put_nowait(1);      // wakes a
  EXPECT_TRUE(a.cancel());  // before a resumes: its future is done, the task is not
  t.turn();
  EXPECT_EQ(log, Log{"a cancelled"}) << "b is woken by a's except branch, not by the put";
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b got 1"}));
  EXPECT_TRUE(queue.empty());
}

TEST(Queue, AGetterWokenThenCancelledWakesNobodyWhenTheItemIsGone) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  Task<void> a = create_task(t.loop, consume(queue, "a", &log));
  for (const char* name : {"b", "c"}) (void)create_task(t.loop, consume(queue, name, &log));
  t.turn();
  queue.put_nowait(1);  // wakes a
  a.cancel();
  EXPECT_EQ(queue.get_nowait(), 1);
  t.turns(2);
  EXPECT_EQ(log, Log{"a cancelled"});
  queue.put_nowait(2);
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b got 2"}))
      << "b kept its place: nobody woke it for an item that was gone";
}

TEST(Queue, ACancelledPutterLeavesTheLineAndItsItemIsNotPut) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  Task<void> p = create_task(t.loop, produce(queue, 2, "p", &log));
  t.turn();
  p.cancel();
  t.turn();
  EXPECT_EQ(log, Log{"p cancelled"});
  EXPECT_EQ(queue.repr(), "<Queue maxsize=1 tasks=1>");
  EXPECT_EQ(queue.get_nowait(), 1);
  EXPECT_TRUE(queue.empty());
}

TEST(Queue, APutterWokenThenCancelledPassesTheSlotOn) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  Task<void> a = create_task(t.loop, produce(queue, 2, "a", &log));
  (void)create_task(t.loop, produce(queue, 3, "b", &log));
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 1);  // wakes a
  a.cancel();
  t.turns(2);
  EXPECT_EQ(log, (Log{"a cancelled", "b put 3"}));
  EXPECT_EQ(queue.get_nowait(), 3);
}

TEST(Queue, APutterWokenThenCancelledWakesNobodyWhenTheSlotIsGone) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  Task<void> a = create_task(t.loop, produce(queue, 2, "a", &log));
  (void)create_task(t.loop, produce(queue, 3, "b", &log));
  (void)create_task(t.loop, produce(queue, 4, "c", &log));
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 1);  // wakes a
  a.cancel();
  queue.put_nowait(9);  // the slot is taken again before a resumes
  t.turns(2);
  EXPECT_EQ(log, Log{"a cancelled"});
  EXPECT_EQ(queue.get_nowait(), 9);
  t.turn();
  EXPECT_EQ(log, (Log{"a cancelled", "b put 3"}))
      << "b kept its place: nobody woke it for a slot that was gone";
}

TEST(Queue, BelongsToTheFirstLoopThatMakesACoroutineWait) {
  TestLoop first;
  TestLoop second;
  Queue<int> queue;
  Log log;
  queue.put_nowait(1);
  (void)create_task(second.loop, consume(queue, "a", &log));
  second.turn();
  EXPECT_EQ(log, Log{"a got 1"}) << "a get that does not wait binds the queue to no loop";
  (void)create_task(first.loop, consume(queue, "b", &log));
  first.turn();
  queue.put_nowait(2);
  first.turn();
  EXPECT_EQ(log, (Log{"a got 1", "b got 2"}));
  Task<void> other = create_task(second.loop, consume(queue, "c", &log));
  second.turn();
  ASSERT_TRUE(other.done());
  EXPECT_EQ(describe(other.exception()),
            "RuntimeError: <Queue maxsize=0 tasks=2> is bound to a different event loop");
}

TEST(Queue, ATaskDestroyedWhileItWaitsLeavesTheLine) {
  Queue<int> queue;
  Log log;
  {
    TestLoop t;
    (void)create_task(t.loop, consume(queue, "a", &log));
    t.turn();
    EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[1]>");
    t.loop.close();
  }
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0>");
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace looplab
