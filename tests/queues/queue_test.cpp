// asyncio.Queue (CPython 3.13, Lib/asyncio/queues.py), built in extension
// lab 06 and API from stage 07 on: the items and the lines of waiters, one
// rule of looplab/queues.hpp per test. On the virtual clock, turn by turn.
#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <string>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::consume;
using testing::Log;
using testing::produce;
using testing::TestLoop;

TEST(Queue, StartsEmptyAndNotFull) {
  Queue<int> queue;
  EXPECT_EQ(queue.qsize(), 0U);
  EXPECT_TRUE(queue.empty());
  EXPECT_FALSE(queue.full());
  EXPECT_EQ(queue.maxsize(), 0);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0>");
}

TEST(Queue, IsFullOnlyWithAPositiveMaxsize) {
  Queue<int> unbounded;
  Queue<int> negative(-1);
  for (int i = 0; i < 100; ++i) {
    unbounded.put_nowait(i);
    negative.put_nowait(i);
  }
  EXPECT_FALSE(unbounded.full());
  EXPECT_FALSE(negative.full()) << "maxsize <= 0: no limit";
  Queue<int> two(2);
  two.put_nowait(1);
  EXPECT_FALSE(two.full());
  two.put_nowait(2);
  EXPECT_TRUE(two.full());
  EXPECT_EQ(two.qsize(), 2U);
}

TEST(Queue, ItemsComeOutFirstInFirstOut) {
  Queue<int> queue;
  for (int item : {1, 2, 3}) queue.put_nowait(item);
  EXPECT_EQ(queue.get_nowait(), 1);
  EXPECT_EQ(queue.get_nowait(), 2);
  EXPECT_EQ(queue.get_nowait(), 3);
  EXPECT_TRUE(queue.empty());
}

TEST(Queue, GetNowaitOnAnEmptyQueueRaisesQueueEmpty) {
  Queue<int> queue;
  EXPECT_THROW((void)queue.get_nowait(), QueueEmpty);
  queue.put_nowait(1);
  EXPECT_EQ(queue.get_nowait(), 1) << "still usable";
  EXPECT_THROW((void)queue.get_nowait(), QueueEmpty);
}

TEST(Queue, ItsErrorsHaveNoMessageAsInPython) {
  // str(asyncio.QueueEmpty()) is '': repr QueueEmpty(), and a traceback's
  // last line is just the type, with its module.
  EXPECT_EQ(exception_repr(std::make_exception_ptr(QueueEmpty())), "QueueEmpty()");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(QueueFull())), "QueueFull()");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(QueueShutDown())), "QueueShutDown()");
  EXPECT_EQ(traceback_last_line(std::make_exception_ptr(QueueShutDown())),
            "asyncio.queues.QueueShutDown");
}

TEST(Queue, PutNowaitOnAFullQueueRaisesQueueFullAndLeavesTheItemOut) {
  Queue<int> queue(1);
  queue.put_nowait(1);
  EXPECT_THROW(queue.put_nowait(2), QueueFull);
  EXPECT_EQ(queue.qsize(), 1U);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=1 tasks=1>") << "the refused item is not counted";
  EXPECT_EQ(queue.get_nowait(), 1);
}

TEST(Queue, AnItemMovedIntoARefusedPutNowaitIsStillTheCallers) {
  Queue<std::unique_ptr<int>> queue(1);
  queue.put_nowait(std::make_unique<int>(1));
  auto refused = std::make_unique<int>(2);
  EXPECT_THROW(queue.put_nowait(std::move(refused)), QueueFull);
  ASSERT_NE(refused, nullptr) << "moved only once the queue takes it";
  EXPECT_EQ(*refused, 2);
  queue.shutdown();
  EXPECT_EQ(*queue.get_nowait(), 1);
  EXPECT_THROW(queue.put_nowait(std::move(refused)), QueueShutDown);
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(*refused, 2);
}

TEST(Queue, APutNowaitOfAnLvalueCopiesIt) {
  Queue<std::string> queue;
  std::string item = "kept";
  queue.put_nowait(item);
  EXPECT_EQ(item, "kept");
  EXPECT_EQ(queue.get_nowait(), "kept");
}

TEST(Queue, CopiesShareOneQueue) {
  Queue<int> queue;
  Queue<int> copy = queue;
  copy.put_nowait(5);
  EXPECT_EQ(queue.qsize(), 1U);
  EXPECT_EQ(queue.get_nowait(), 5);
  EXPECT_TRUE(copy.empty());
}

TEST(Queue, MoveOnlyItemsAreMovedInAndOut) {
  Queue<std::unique_ptr<int>> queue;
  queue.put_nowait(std::make_unique<int>(42));
  std::unique_ptr<int> item = queue.get_nowait();
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(*item, 42);
}

Coro<void> put_then_get(Queue<int> queue, Log* log) {
  co_await queue.put(1);
  log->push_back("put 1");
  int item = co_await queue.get();
  log->push_back("got " + std::to_string(item));
}

TEST(Queue, PutWithRoomAndGetWithAnItemCostNoTurn) {
  TestLoop t;
  Queue<int> queue(1);
  Log log;
  Task<void> task = create_task(t.loop, put_then_get(queue, &log));
  t.turn();
  EXPECT_EQ(log, (Log{"put 1", "got 1"})) << "both in the task's first step";
  EXPECT_TRUE(task.done());
}

TEST(Queue, AGetOnAnEmptyQueueWaitsForAPutAndResumesATurnLater) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  (void)create_task(t.loop, consume(queue, "a", &log));
  t.turns(2);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[1]>");
  queue.put_nowait(7);
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 tasks=1>")
      << "the woken getter leaves the line at once";
  EXPECT_TRUE(log.empty());
  t.turn();
  EXPECT_EQ(log, Log{"a got 7"});
  EXPECT_TRUE(queue.empty());
}

TEST(Queue, BlockedGettersAreServedFirstInFirstOut) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  for (const char* name : {"a", "b", "c"}) (void)create_task(t.loop, consume(queue, name, &log));
  t.turn();
  for (int item : {1, 2, 3}) queue.put_nowait(item);
  t.turn();
  EXPECT_EQ(log, (Log{"a got 1", "b got 2", "c got 3"}));
}

TEST(Queue, EachPutWakesOneGetter) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  (void)create_task(t.loop, consume(queue, "a", &log));
  (void)create_task(t.loop, consume(queue, "b", &log));
  t.turn();
  queue.put_nowait(1);
  t.turns(2);
  EXPECT_EQ(log, Log{"a got 1"});
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[1] tasks=1>") << "b still waits";
}

TEST(Queue, APutOnAFullQueueWaitsForAGet) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  (void)create_task(t.loop, produce(queue, 2, "p", &log));
  t.turns(2);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(queue.repr(), "<Queue maxsize=1 _putters[1] tasks=1>");
  EXPECT_EQ(queue.get_nowait(), 1);
  t.turn();
  EXPECT_EQ(log, Log{"p put 2"});
  EXPECT_EQ(queue.get_nowait(), 2);
}

TEST(Queue, BlockedPuttersAreServedFirstInFirstOut) {
  TestLoop t;
  Queue<int> queue(1);
  queue.put_nowait(1);
  Log log;
  (void)create_task(t.loop, produce(queue, 2, "a", &log));
  (void)create_task(t.loop, produce(queue, 3, "b", &log));
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 1);
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 2);
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 3);
  EXPECT_EQ(log, (Log{"a put 2", "b put 3"}));
}

TEST(Queue, AGetterRobbedOfItsItemWaitsAgainAtTheBackOfTheLine) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  (void)create_task(t.loop, consume(queue, "a", &log));
  (void)create_task(t.loop, consume(queue, "b", &log));
  t.turn();
  queue.put_nowait(1);  // wakes a
  EXPECT_EQ(queue.get_nowait(), 1) << "taken before a resumes";
  t.turn();
  EXPECT_TRUE(log.empty()) << "a found the queue empty and waits again";
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[2] tasks=1>");
  queue.put_nowait(2);
  t.turn();
  EXPECT_EQ(log, Log{"b got 2"}) << "a lost its place: it is behind b now";
  queue.put_nowait(3);
  t.turn();
  EXPECT_EQ(log, (Log{"b got 2", "a got 3"}));
}

}  // namespace
}  // namespace looplab
