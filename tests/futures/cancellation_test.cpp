// Future.cancel(msg) (asyncio-semantics.md 5.3): True only for a pending
// future; the message travels to every CancelledError waiting raises.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using testing::run_one_turn;

std::string cancelled_message(const Future<int>& future, bool via_exception) {
  try {
    if (via_exception) {
      future.exception();
    } else {
      future.result();
    }
  } catch (const CancelledError& error) {
    return "CancelledError(" + error.message() + ")";
  }
  return "no CancelledError";
}

TEST(Cancellation, CancelReturnsTrueOnceThenFalse) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  EXPECT_TRUE(future.cancel());
  EXPECT_FALSE(future.cancel());
  EXPECT_FALSE(future.cancel("again"));
  EXPECT_TRUE(future.cancelled());
}

TEST(Cancellation, CancelOfAFinishedFutureReturnsFalseAndChangesNothing) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> with_result = loop.create_future<int>();
  with_result.set_result(3);
  EXPECT_FALSE(with_result.cancel());
  EXPECT_FALSE(with_result.cancelled());
  EXPECT_EQ(with_result.result(), 3);

  Future<int> with_error = loop.create_future<int>();
  with_error.set_exception(ValueError("kept"));
  EXPECT_FALSE(with_error.cancel("too late"));
  EXPECT_FALSE(with_error.cancelled());
  EXPECT_EQ(testing::thrown_by([&] { with_error.result(); }), "ValueError: kept");
}

TEST(Cancellation, TheMessageReachesCancelledErrorFromResultAndException) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.cancel("shutting down");
  EXPECT_EQ(cancelled_message(future, false), "CancelledError(shutting down)");
  EXPECT_EQ(cancelled_message(future, true), "CancelledError(shutting down)");
  // A fresh error each time, with the same message.
  EXPECT_EQ(cancelled_message(future, false), "CancelledError(shutting down)");
  try {
    future.result();
  } catch (const CancelledError& error) {
    EXPECT_STREQ(error.what(), "shutting down");
  }
}

TEST(Cancellation, WithoutAMessageTheErrorIsEmpty) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.cancel();
  EXPECT_EQ(cancelled_message(future, false), "CancelledError()");
}

TEST(Cancellation, ASecondCancelDoesNotReplaceTheFirstMessage) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.cancel("first");
  future.cancel("second");
  EXPECT_EQ(cancelled_message(future, false), "CancelledError(first)");
}

TEST(Cancellation, CancelSchedulesTheDoneCallbacksOnceForTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> seen;
  future.add_done_callback(
      [&](Future<int>& f) { seen.push_back(f.cancelled() ? "cancelled" : "not cancelled"); });
  future.cancel();
  future.cancel();  // returns false: schedules nothing more
  EXPECT_TRUE(seen.empty());
  run_one_turn(loop);
  EXPECT_EQ(seen, std::vector<std::string>{"cancelled"});
  run_one_turn(loop);
  EXPECT_EQ(seen.size(), 1u);
}

TEST(Cancellation, ACallbackCanCancelAnotherFutureWhoseCallbacksRunATurnLater) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> first = loop.create_future<int>();
  Future<int> second = loop.create_future<int>();
  std::vector<std::string> seen;
  first.add_done_callback([&](Future<int>&) {
    seen.push_back("first done");
    EXPECT_TRUE(second.cancel("because first ended"));
  });
  second.add_done_callback(
      [&](Future<int>& f) { seen.push_back("second: " + cancelled_message(f, false)); });
  first.set_result(1);
  run_one_turn(loop);
  EXPECT_EQ(seen, std::vector<std::string>{"first done"});
  run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"first done",
                                            "second: CancelledError(because first ended)"}));
}

}  // namespace
}  // namespace looplab
