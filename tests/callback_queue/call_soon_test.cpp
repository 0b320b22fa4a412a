// The ready queue: FIFO order, one snapshot per turn, cancellation.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

TEST(CallSoon, RunsCallbacksInFifoOrder) {
  EventLoop loop;
  std::vector<int> ran;
  for (int i = 0; i < 5; ++i) loop.call_soon([&ran, i] { ran.push_back(i); });
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
}

int plain_function_calls = 0;
void plain_function() { ++plain_function_calls; }

TEST(CallSoon, TakesAPlainFunctionByName) {
  // loop.call_soon(tick), as in Python: the function decays to a pointer.
  EventLoop loop;
  plain_function_calls = 0;
  loop.call_soon(plain_function);
  loop.call_soon(&plain_function);
  testing::run_one_turn(loop);
  EXPECT_EQ(plain_function_calls, 2);
}

TEST(CallSoon, ATurnRunsOnlyTheHandlesQueuedWhenItBegan) {
  EventLoop loop;
  std::vector<std::string> ran;
  loop.call_soon([&] {
    ran.push_back("A");
    loop.call_soon([&] { ran.push_back("A2"); });
  });
  loop.call_soon([&] { ran.push_back("B"); });
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"A", "B"}));
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"A", "B", "A2"}));
}

TEST(CallSoon, ASelfReschedulingCallbackAdvancesOneHopPerTurn) {
  EventLoop loop;
  int hops = 0;
  std::function<void()> hop = [&] {
    if (++hops < 10) loop.call_soon(hop);
  };
  loop.call_soon(hop);
  testing::run_one_turn(loop);
  EXPECT_EQ(hops, 1);
  testing::run_one_turn(loop);
  EXPECT_EQ(hops, 2);
}

TEST(CallSoon, ACancelledHandleNeverRuns) {
  EventLoop loop;
  bool ran = false;
  Handle handle = loop.call_soon([&] { ran = true; });
  EXPECT_FALSE(handle.cancelled());
  handle.cancel();
  handle.cancel();  // idempotent
  EXPECT_TRUE(handle.cancelled());
  testing::run_one_turn(loop);
  EXPECT_FALSE(ran);
}

TEST(CallSoon, CancellingDropsWhatTheCallbackCaptured) {
  EventLoop loop;
  auto resource = std::make_shared<int>(42);
  std::weak_ptr<int> watch = resource;
  Handle handle = loop.call_soon([resource = std::move(resource)] {});
  EXPECT_FALSE(watch.expired());
  handle.cancel();
  EXPECT_TRUE(watch.expired());
}

TEST(CallSoon, ACallbackThatRanReleasesItsCapturesEvenIfTheHandleIsKept) {
  EventLoop loop;
  auto resource = std::make_shared<int>(1);
  std::weak_ptr<int> watch = resource;
  Handle handle = loop.call_soon([resource = std::move(resource)] {});
  testing::run_one_turn(loop);
  EXPECT_TRUE(watch.expired());
  EXPECT_FALSE(handle.cancelled());
}

TEST(CallSoon, CancelAfterTheCallbackRanIsANoOp) {
  EventLoop loop;
  int runs = 0;
  Handle handle = loop.call_soon([&] { ++runs; });
  testing::run_one_turn(loop);
  handle.cancel();
  EXPECT_TRUE(handle.cancelled());  // asyncio sets the flag anyway
  loop.call_soon([] {});
  testing::run_one_turn(loop);
  EXPECT_EQ(runs, 1);
}

TEST(CallSoon, ACallbackMayCancelItsOwnHandleWhileRunning) {
  EventLoop loop;
  auto resource = std::make_shared<int>(7);
  Handle self;
  int seen = 0;
  self = loop.call_soon([&, resource] {
    self.cancel();  // must not destroy the running lambda
    seen = *resource;
  });
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, 7);
  EXPECT_TRUE(self.cancelled());
}

TEST(CallSoon, ACallbackMayCancelALaterHandleOfTheSameTurn) {
  EventLoop loop;
  std::vector<std::string> ran;
  Handle second;
  loop.call_soon([&] {
    ran.push_back("first");
    second.cancel();
  });
  second = loop.call_soon([&] { ran.push_back("second"); });
  loop.call_soon([&] { ran.push_back("third"); });
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"first", "third"}));
}

TEST(CallSoon, LargeCallablesWork) {
  EventLoop loop;
  std::array<long, 32> big{};  // 256 bytes: stored on the heap, still runs
  big[31] = 99;
  long seen = 0;
  loop.call_soon([&seen, big] { seen = big[31]; });
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, 99);
}

TEST(CallSoon, ReprNamesWhereTheHandleWasCreatedUntilItIsCancelled) {
  EventLoop loop;
  Handle handle = loop.call_soon([] {});
  EXPECT_EQ(handle.repr().rfind("<Handle created at call_soon_test.cpp:", 0), 0u) << handle.repr();
  handle.cancel();
  EXPECT_EQ(handle.repr(), "<Handle cancelled>");  // asyncio's, outside debug mode
}

TEST(CallSoon, CloseDropsQueuedCallbacksWithoutRunningThem) {
  EventLoop loop;
  auto resource = std::make_shared<int>(3);
  std::weak_ptr<int> watch = resource;
  bool ran = false;
  loop.call_soon([&ran, resource = std::move(resource)] { ran = true; });
  loop.close();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace looplab
