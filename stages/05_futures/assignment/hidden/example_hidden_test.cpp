// An example of an instructor's hidden tests for assignment 05 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/sleep.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

TEST(HiddenExample, DoneCallbacksRunInTheOrderTheyWereAddedOneTurnLater) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::string ran;
  future.add_done_callback([&](Future<int>& f) { ran += "a" + std::to_string(f.result()); });
  future.add_done_callback([&](Future<int>&) { ran += "b"; });
  future.set_result(7);
  EXPECT_EQ(ran, "");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, "a7b");
}

TEST(HiddenExample, RunUntilCompleteOfASleepEndsAtItsDeadlineAndLeavesTheLoopUsable) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.run_until_complete(sleep(loop, 2s));
  EXPECT_EQ(loop.time().time_since_epoch(), std::chrono::seconds(2));
  Future<int> next = loop.create_future<int>();
  loop.call_soon([next]() mutable { next.set_result(1); });
  EXPECT_EQ(loop.run_until_complete(next), 1);
}

}  // namespace
}  // namespace looplab
