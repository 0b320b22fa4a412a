// wait() and as_completed() (asyncio's tasks._wait and as_completed): which
// futures are done when each returns, timeouts that are no error, nothing
// cancelled, and the done callbacks removed however the wait ends.
#include "looplab/wait.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::TestLoop;

Coro<int> after(std::chrono::seconds delay, int value) {
  co_await sleep(delay);
  co_return value;
}

Coro<int> fails_after(std::chrono::seconds delay) {
  co_await sleep(delay);
  throw ValueError("failed");
}

std::vector<Future<int>> three(EventLoop& loop) {
  return {create_task(loop, after(3s, 3)), create_task(loop, after(1s, 1)),
          create_task(loop, after(2s, 2))};
}

TEST(Wait, AllCompletedReturnsWhenEveryFutureIsDone) {
  TestLoop t;
  std::vector<Future<int>> fs = three(t.loop);
  WaitResult<int> result = t.loop.run_until_complete(wait(fs));
  EXPECT_EQ(result.done.size(), 3U);
  EXPECT_TRUE(result.pending.empty());
  EXPECT_EQ(t.now(), 3.0);
  EXPECT_TRUE(result.done[0] == fs[0]);  // argument order
}

TEST(Wait, FirstCompletedReturnsAtTheFirstAndCancelsNothing) {
  TestLoop t;
  std::vector<Future<int>> fs = three(t.loop);
  WaitResult<int> result = t.loop.run_until_complete(wait(fs, ReturnWhen::kFirstCompleted));
  ASSERT_EQ(result.done.size(), 1U);
  EXPECT_EQ(result.done[0].result(), 1);
  EXPECT_EQ(result.pending.size(), 2U);
  EXPECT_EQ(t.now(), 1.0);
  for (const Future<int>& f : result.pending) EXPECT_FALSE(f.cancelled());
}

TEST(Wait, FirstExceptionReturnsAtTheFirstFailure) {
  TestLoop t;
  std::vector<Future<int>> fs{create_task(t.loop, after(1s, 1)),
                              create_task(t.loop, fails_after(2s)),
                              create_task(t.loop, after(3s, 3))};
  WaitResult<int> result = t.loop.run_until_complete(wait(fs, ReturnWhen::kFirstException));
  EXPECT_EQ(result.done.size(), 2U);
  EXPECT_EQ(result.pending.size(), 1U);
  EXPECT_EQ(t.now(), 2.0);
  t.loop.run_until_complete(wait(fs));
  EXPECT_TRUE(t.reports.empty());  // wait() looked at the exception: retrieved
}

// asyncio asks exception() only when the counter has not decided: the last
// future to finish, failed, stays unretrieved and is reported when dropped.
TEST(Wait, FirstExceptionLeavesTheFailureThatFinishesLastUnretrieved) {
  TestLoop t;
  {
    std::vector<Future<int>> fs{create_task(t.loop, after(1s, 1)),
                                create_task(t.loop, fails_after(2s))};
    WaitResult<int> result = t.loop.run_until_complete(wait(fs, ReturnWhen::kFirstException));
    EXPECT_EQ(result.done.size(), 2U);
    EXPECT_TRUE(t.reports.empty());
  }
  ASSERT_EQ(t.reports.size(), 1U);
  EXPECT_TRUE(t.reports[0].starts_with("Task exception was never retrieved")) << t.reports[0];
}

TEST(Wait, ATimeoutReturnsWhatIsDoneSoFarWithoutAnError) {
  TestLoop t;
  std::vector<Future<int>> fs = three(t.loop);
  WaitResult<int> result = t.loop.run_until_complete(wait(fs, 1500ms));
  EXPECT_EQ(result.done.size(), 1U);
  EXPECT_EQ(result.pending.size(), 2U);
  EXPECT_EQ(t.now(), 1.5);
  t.loop.run_until_complete(wait(fs));
}

TEST(Wait, AnEmptySetIsAValueError) {
  TestLoop t;
  EXPECT_EQ(
      testing::thrown_by([&] { t.loop.run_until_complete(wait(std::vector<Future<int>>{})); }),
      "ValueError: Set of Tasks/Futures is empty.");
}

TEST(Wait, CancellingTheWaiterLeavesTheFuturesAloneAndUnwatched) {
  TestLoop t;
  Future<int> pending = t.loop.create_future<int>();
  std::vector<Future<int>> fs{pending};
  auto waiting = [](std::vector<Future<int>> some) -> Coro<int> {
    WaitResult<int> result = co_await wait(std::move(some));
    co_return static_cast<int>(result.done.size());
  };
  Task<int> waiter = create_task(t.loop, waiting, fs);
  t.turns(2);
  EXPECT_TRUE(waiter.cancel());
  t.run_until_done(waiter);
  EXPECT_TRUE(waiter.cancelled());
  EXPECT_FALSE(pending.cancelled());
  pending.set_result(5);  // no callback of the wait is left to run
  t.turns(2);
  EXPECT_TRUE(t.reports.empty());
}

TEST(AsCompleted, ResultsComeInTheOrderTheFuturesComplete) {
  TestLoop t;
  auto collect = [](std::vector<Future<int>> fs) -> Coro<std::vector<int>> {
    std::vector<int> order;
    AsCompleted<int> results = as_completed(std::move(fs));
    while (results.size() > 0) order.push_back(co_await results.next());
    co_return order;
  };
  std::vector<int> order = t.loop.run_until_complete(create_task(t.loop, collect, three(t.loop)));
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(AsCompleted, NextFutureGivesTheFuturesThemselves) {
  TestLoop t;
  std::vector<Future<int>> fs = three(t.loop);
  auto first_done = [](std::vector<Future<int>> some) -> Coro<Future<int>> {
    AsCompleted<int> completed = as_completed(std::move(some));
    co_return co_await completed.next_future();
  };
  Future<int> first = t.loop.run_until_complete(create_task(t.loop, first_done, fs));
  EXPECT_TRUE(first == fs[1]);
  t.loop.run_until_complete(wait(fs));
}

TEST(AsCompleted, WhatIsNotThereInTimeIsATimeoutErrorAndTakingMoreIsAnError) {
  TestLoop t;
  std::vector<Future<int>> fs{create_task(t.loop, after(1s, 1)), create_task(t.loop, after(5s, 5))};
  auto collect = [](std::vector<Future<int>> some) -> Coro<std::vector<std::string>> {
    std::vector<std::string> seen;
    AsCompleted<int> results = as_completed(std::move(some), 2s);
    while (results.size() > 0) {
      try {
        seen.push_back(std::to_string(co_await results.next()));
      } catch (const TimeoutError&) {
        seen.push_back("timeout");
      }
    }
    try {
      (void)results.next();
    } catch (const RuntimeError&) {
      seen.push_back("no more");
    }
    co_return seen;
  };
  std::vector<std::string> seen = t.loop.run_until_complete(create_task(t.loop, collect, fs));
  EXPECT_EQ(seen, (std::vector<std::string>{"1", "timeout", "no more"}));
  EXPECT_EQ(t.now(), 2.0);
  EXPECT_FALSE(fs[1].done());  // not cancelled: it finishes later
  t.loop.run_until_complete(fs[1]);
}

}  // namespace
}  // namespace looplab
