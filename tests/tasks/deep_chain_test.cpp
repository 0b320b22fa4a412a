// Long and deep chains of co_await do not grow the stack (chapter 6,
// pitfall P2). Each frame hands over to the next through the step's pump
// instead of resuming it from inside its own await_suspend, so the depth of
// the C++ stack stays constant however many coroutines await each other.
// These tests matter most in the Debug + ASan build: there g++ 12 does not
// turn symmetric transfer into a tail call, and ASan makes frames large.
#include <gtest/gtest.h>

#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::DestructionCounter;
using testing::TestLoop;

Coro<int> increment(int x) { co_return x + 1; }

Coro<int> count_sequentially(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) total = co_await increment(total);
  co_return total;
}

TEST(DeepChain, AHundredThousandSequentialAwaitsOfACoro) {
  TestLoop t;
  Task<int> task = create_task(t.loop, count_sequentially(100'000));
  EXPECT_EQ(t.turns_until_done(task), 1);  // all inline, in one step
  EXPECT_EQ(task.result(), 100'000);
}

Coro<int> nest(int depth) {
  if (depth == 0) co_return 0;
  co_return 1 + co_await nest(depth - 1);
}

TEST(DeepChain, TenThousandNestedAwaits) {
  TestLoop t;
  Task<int> task = create_task(t.loop, nest(10'000));
  EXPECT_EQ(t.loop.run_until_complete(task), 10'000);
}

TEST(DeepChain, AHundredThousandNestedAwaits) {
  TestLoop t;
  Task<int> task = create_task(t.loop, nest(100'000));
  EXPECT_EQ(t.loop.run_until_complete(task), 100'000);
}

Coro<int> nest_then_wait(int depth, Future<int> bottom) {
  if (depth == 0) co_return co_await bottom;
  co_return 1 + co_await nest_then_wait(depth - 1, bottom);
}

TEST(DeepChain, ASuspensionAtTheBottomOfTenThousandFramesResumesThere) {
  TestLoop t;
  Future<int> bottom = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, nest_then_wait(10'000, bottom));
  t.turn();
  EXPECT_FALSE(task.done());
  bottom.set_result(5);
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_EQ(task.result(), 10'005);
}

Coro<int> nest_then_throw(int depth) {
  if (depth == 0) {
    co_await sleep(0s);
    throw ValueError("from the bottom");
  }
  co_return 1 + co_await nest_then_throw(depth - 1);
}

TEST(DeepChain, AnExceptionClimbsTenThousandFrames) {
  TestLoop t;
  Task<int> task = create_task(t.loop, nest_then_throw(10'000));
  EXPECT_EQ(testing::thrown_by([&] { t.loop.run_until_complete(task); }),
            "ValueError: from the bottom");
}

TEST(DeepChain, ACancellationDeliveredTenThousandFramesDownUnwindsThemAll) {
  TestLoop t;
  Future<int> bottom = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, nest_then_wait(10'000, bottom));
  t.turn();
  task.cancel();
  EXPECT_TRUE(bottom.cancelled());
  t.turn();
  EXPECT_TRUE(task.cancelled());
}

Coro<int> nest_counted(int depth, Future<int> bottom, int* destroyed) {
  DestructionCounter mine(destroyed);  // one per frame
  if (depth == 0) co_return co_await bottom;
  co_return co_await nest_counted(depth - 1, bottom, destroyed);
}

// Destroying a suspended chain (closing the loop with the task pending) is
// the one path that still recurses: each frame's destruction destroys the
// Coro it awaits, and so on down. A thousand frames are fine everywhere; ten
// thousand overflow the stack under clang 14 + ASan (not g++ 12): see the
// report on stage 06 (destroying from the innermost frame outwards would fix it).
TEST(DeepChain, ClosingTheLoopDestroysAThousandPendingFrames) {
  TestLoop t;
  int destroyed = 0;
  {
    Future<int> bottom = t.loop.create_future<int>();
    (void)create_task(t.loop, nest_counted(1'000, bottom, &destroyed));
    t.turn();
  }
  t.loop.close();
  EXPECT_EQ(destroyed, 1'001);  // every frame of the chain
  EXPECT_EQ(t.reports.size(), 1u);
}

TEST(DeepChain, ManySmallTasksEachAwaitingTheNext) {
  // 1,000 tasks, each awaiting a task it creates: two turns per level.
  TestLoop t;
  struct Chain {
    static Coro<int> level(EventLoop* loop, int depth) {
      if (depth == 0) co_return 0;
      Task<int> next = create_task(*loop, level(loop, depth - 1));
      co_return 1 + co_await next;
    }
  };
  Task<int> task = create_task(t.loop, Chain::level(&t.loop, 1000));
  EXPECT_EQ(t.turns_until_done(task, 10'000), 2 * 1000 + 1);
  EXPECT_EQ(task.result(), 1000);
}

}  // namespace
}  // namespace looplab
