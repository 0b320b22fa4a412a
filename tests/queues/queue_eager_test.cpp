// A Queue under eager tasks (stage 07): an eager task's first step runs
// inside create_task(), so a get() or put() that need not wait is over when
// create_task() returns, and one that must wait is in line by then; it
// resumes in a later turn, as a lazy task would (asyncio 3.12 and later).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::consume;
using testing::Log;
using testing::produce;
using testing::TestLoop;

// Not constexpr: TaskOptions holds a std::optional<Context>, no literal type for clang.
const TaskOptions kEager{.eager_start = true};

/// Runs `body` in a callback of the running loop, where eager start applies.
template <typename F>
void in_a_callback(TestLoop& t, F body) {
  t.loop.call_soon(std::move(body));
  t.turn();
}

TEST(EagerQueue, AGetThatFindsAnItemIsDoneWhenCreateTaskReturns) {
  TestLoop t;
  Queue<int> queue;
  queue.put_nowait(1);
  Log log;
  in_a_callback(t, [&] {
    Task<void> task = create_task(t.loop, consume(queue, "a", &log), kEager);
    EXPECT_TRUE(task.done());
    EXPECT_EQ(log, Log{"a got 1"}) << "inside create_task()";
  });
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.repr(), "<Queue maxsize=0 tasks=1>");
}

TEST(EagerQueue, AGetOnAnEmptyQueueIsInLineWhenCreateTaskReturns) {
  TestLoop t;
  Queue<int> queue;
  Log log;
  std::optional<Task<void>> task;
  in_a_callback(t, [&] {
    task = create_task(t.loop, consume(queue, "a", &log), kEager);
    EXPECT_FALSE(task->done());
    EXPECT_EQ(queue.repr(), "<Queue maxsize=0 _getters[1]>") << "queued by the eager step";
  });
  queue.put_nowait(5);
  EXPECT_TRUE(log.empty());
  t.turn();
  EXPECT_EQ(log, Log{"a got 5"}) << "resumed a turn after the put, as a lazy task";
  EXPECT_TRUE(task->done());
}

TEST(EagerQueue, EagerPuttersOnAFullQueueWaitInTheOrderTheyWereCreated) {
  TestLoop t;
  Queue<int> queue(1);
  Log log;
  in_a_callback(t, [&] {
    for (int item : {1, 2, 3}) {
      std::string name = "p" + std::to_string(item);
      (void)create_task(t.loop, produce(queue, item, name, &log), kEager);
    }
    EXPECT_EQ(log, Log{"p1 put 1"}) << "the first found room, inside create_task()";
    EXPECT_EQ(queue.repr(), "<Queue maxsize=1 _putters[2] tasks=1>");
  });
  EXPECT_EQ(queue.get_nowait(), 1);
  t.turn();
  EXPECT_EQ(queue.get_nowait(), 2);
  t.turn();
  EXPECT_EQ(log, (Log{"p1 put 1", "p2 put 2", "p3 put 3"}));
}

TEST(EagerQueue, BindsToTheLoopWhoseEagerStepFirstWaitsInIt) {
  TestLoop first;
  TestLoop second;
  Queue<int> queue;
  Log log;
  in_a_callback(first, [&] { (void)create_task(first.loop, consume(queue, "a", &log), kEager); });
  std::optional<Task<void>> other;
  in_a_callback(second, [&] {
    other = create_task(second.loop, consume(queue, "b", &log), kEager);
    EXPECT_TRUE(other->done()) << "the error ends the eager step";
  });
  EXPECT_EQ(testing::describe(other->exception()),
            "RuntimeError: <Queue maxsize=0 _getters[1]> is bound to a different event loop");
}

}  // namespace
}  // namespace looplab
