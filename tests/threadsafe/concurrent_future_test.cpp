// concurrent::Future<T>: concurrent.futures.Future's states, its blocking
// result(timeout), and callbacks run by the thread that completes it.
#include "looplab/concurrent_future.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::thrown_by;

TEST(ConcurrentFuture, ResultBlocksUntilAnotherThreadSetsIt) {
  concurrent::Future<int> future;
  std::thread setter([future] { future.set_result(42); });
  EXPECT_EQ(future.result(), 42);  // whenever the setter runs
  setter.join();
  EXPECT_TRUE(future.done());
}

TEST(ConcurrentFuture, APendingResultWithATimeoutIsATimeoutErrorAndChangesNothing) {
  concurrent::Future<int> future;
  EXPECT_EQ(thrown_by([&] { future.result(0ns); }), "TimeoutError");
  EXPECT_FALSE(future.done());
  future.set_result(7);
  EXPECT_EQ(future.result(0ns), 7);
}

TEST(ConcurrentFuture, CancelSucceedsOnlyWhilePendingAndRunsTheCallbacksInTheCancellingThread) {
  concurrent::Future<int> future;
  std::thread::id ran_in;
  future.add_done_callback(
      [&](const concurrent::Future<int>&) { ran_in = std::this_thread::get_id(); });
  std::thread canceller([&] { EXPECT_TRUE(future.cancel()); });
  canceller.join();
  EXPECT_NE(ran_in, std::this_thread::get_id());
  EXPECT_TRUE(future.cancel());  // cancelled already: still true
  EXPECT_TRUE(future.cancelled());
  EXPECT_EQ(thrown_by([&] { future.result(); }), "concurrent::CancelledError");

  concurrent::Future<int> running;
  EXPECT_TRUE(running.set_running_or_notify_cancel());
  EXPECT_FALSE(running.cancel());
  EXPECT_TRUE(running.running());
  running.set_result(1);
  EXPECT_FALSE(running.cancel());
}

TEST(ConcurrentFuture, SetRunningOrNotifyCancelTellsTheWorkWhetherToRun) {
  concurrent::Future<void> cancelled;
  cancelled.cancel();
  EXPECT_FALSE(cancelled.set_running_or_notify_cancel());
  EXPECT_EQ(thrown_by([&] { cancelled.set_running_or_notify_cancel(); }),
            "RuntimeError: Future in unexpected state");
  concurrent::Future<void> finished;
  finished.set_result();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(thrown_by([&] { finished.set_running_or_notify_cancel(); }),
            "RuntimeError: Future in unexpected state");
  // As _base.py logs it (critical) before it raises.
  std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(logged.find("in unexpected state: FINISHED"), std::string::npos) << logged;
}

TEST(ConcurrentFuture, ReprNamesTheStateInLowerCaseAsPythonsDoes) {
  concurrent::Future<int> future;
  EXPECT_NE(future.repr().find(" state=pending>"), std::string::npos) << future.repr();
  future.cancel();
  EXPECT_NE(future.repr().find(" state=cancelled>"), std::string::npos) << future.repr();
}

// _base.py: "<Future at 0x... state=finished returned int>", "... raised
// ValueError>": the class of the result, or of the exception.
TEST(ConcurrentFuture, AFinishedOnesReprNamesTheClassOfWhatItEndedWith) {
  auto ends_with = [](const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };
  concurrent::Future<int> number;
  number.set_result(3);
  EXPECT_TRUE(ends_with(number.repr(), " state=finished returned int>")) << number.repr();
  concurrent::Future<std::string> text;
  text.set_result("x");
  EXPECT_TRUE(ends_with(text.repr(), " state=finished returned str>")) << text.repr();
  concurrent::Future<void> nothing;
  nothing.set_result();
  EXPECT_TRUE(ends_with(nothing.repr(), " state=finished returned NoneType>")) << nothing.repr();
  concurrent::Future<int> failed;
  failed.set_exception(std::make_exception_ptr(ValueError("bad")));
  EXPECT_TRUE(ends_with(failed.repr(), " state=finished raised ValueError>")) << failed.repr();
}

TEST(ConcurrentFuture, SettingADoneFutureIsAnInvalidStateErrorNamingItsState) {
  concurrent::Future<int> finished;
  finished.set_result(1);
  std::string error = thrown_by([&] { finished.set_result(2); });
  EXPECT_EQ(error.rfind("concurrent::InvalidStateError: FINISHED: <Future at 0x", 0), 0U) << error;
  EXPECT_EQ(finished.result(), 1);
  concurrent::Future<int> cancelled;
  cancelled.cancel();
  error = thrown_by([&] { cancelled.set_exception(std::make_exception_ptr(ValueError("x"))); });
  EXPECT_EQ(error.rfind("concurrent::InvalidStateError: CANCELLED: <Future at 0x", 0), 0U) << error;
}

TEST(ConcurrentFuture, ItsErrorsArePrintedAsPythonPrintsConcurrentFuturesOwn) {
  // repr(): the class alone; a traceback's last line: its module.
  std::exception_ptr cancelled = std::make_exception_ptr(concurrent::CancelledError());
  EXPECT_EQ(exception_repr(cancelled), "CancelledError()");
  EXPECT_EQ(traceback_last_line(cancelled), "concurrent.futures._base.CancelledError");
  std::exception_ptr invalid = std::make_exception_ptr(concurrent::InvalidStateError("x"));
  EXPECT_EQ(exception_repr(invalid), "InvalidStateError('x')");
  EXPECT_EQ(traceback_last_line(invalid), "concurrent.futures._base.InvalidStateError: x");
}

TEST(ConcurrentFuture, AnExceptionIsRethrownAndReturnedByException) {
  concurrent::Future<int> future;
  future.set_exception(std::make_exception_ptr(ValueError("bad")));
  EXPECT_EQ(thrown_by([&] { future.result(); }), "ValueError: bad");
  EXPECT_EQ(describe_exception(future.exception()), "ValueError: bad");
}

TEST(ConcurrentFuture, ACallbackAddedWhenDoneRunsAtOnceAndAThrowingOneIsContained) {
  concurrent::Future<int> future;
  future.set_result(3);
  int seen = 0;
  future.add_done_callback([&](const concurrent::Future<int>& done) { seen = done.result(); });
  EXPECT_EQ(seen, 3);
  ::testing::internal::CaptureStderr();
  future.add_done_callback([](const concurrent::Future<int>&) { throw ValueError("oops"); });
  std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(logged.find("exception calling callback for <Future at 0x"), std::string::npos);
  EXPECT_NE(logged.find("ValueError: oops"), std::string::npos);
}

TEST(ConcurrentFuture, EveryWaiterWakesWhenItIsSet) {
  concurrent::Future<int> future;
  std::vector<std::thread> waiters;
  std::vector<int> got(8, 0);
  for (std::size_t i = 0; i < got.size(); ++i) {
    waiters.emplace_back([&, i] { got[i] = future.result(); });
  }
  future.set_result(5);
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(got, std::vector<int>(8, 5));
}

}  // namespace
}  // namespace looplab
