// "Future exception was never retrieved" (asyncio-semantics.md 5.4): a
// future that finished with an exception nobody asked for reports it to the
// loop's exception handler when it is destroyed; in C++ that is as soon as
// the last reference goes, deterministically.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using testing::run_one_turn;
using testing::TestLoop;

const std::string kReport = "Future exception was never retrieved | ValueError: lost";

TEST(NeverRetrieved, AnUnretrievedExceptionIsReportedWhenTheFutureIsDestroyed) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    future.set_exception(ValueError("lost"));
    EXPECT_TRUE(r.reports.empty());  // not while someone holds it
  }
  EXPECT_EQ(r.reports, std::vector<std::string>{kReport});
}

TEST(NeverRetrieved, ReportedOnceHoweverManyCopiesThereWere) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    std::vector<Future<int>> copies(3, future);
    future.set_exception(ValueError("lost"));
  }
  EXPECT_EQ(r.reports, std::vector<std::string>{kReport});
}

TEST(NeverRetrieved, NothingIsReportedOnceResultHasRaisedIt) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    future.set_exception(ValueError("lost"));
    EXPECT_THROW(future.result(), ValueError);
  }
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, NothingIsReportedOnceExceptionHasReturnedIt) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    future.set_exception(ValueError("lost"));
    EXPECT_NE(future.exception(), nullptr);
  }
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, ACancelledFutureReportsNothing) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    future.cancel("never looked at");
  }
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, CancelAfterSetExceptionReturnsFalseButSilencesTheReport) {
  // futures.py: cancel() clears __log_traceback before it looks at the state.
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    future.set_exception(ValueError("lost"));
    EXPECT_FALSE(future.cancel());
  }
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, AResultOrAPendingFutureReportsNothing) {
  TestLoop r;
  {
    Future<int> finished = r.loop.create_future<int>();
    finished.set_result(1);
    Future<int> pending = r.loop.create_future<int>();
  }
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, TheReportWaitsUntilTheQueuedCallbacksHaveRun) {
  TestLoop r;
  bool ran = false;
  {
    Future<int> future = r.loop.create_future<int>();
    future.add_done_callback([&](Future<int>&) { ran = true; });  // does not look
    future.set_exception(ValueError("lost"));
  }
  EXPECT_TRUE(r.reports.empty());  // the queued callback holds the future
  run_one_turn(r.loop);
  EXPECT_TRUE(ran);
  EXPECT_EQ(r.reports, std::vector<std::string>{kReport});
}

TEST(NeverRetrieved, ACallbackThatRetrievesTheExceptionSilencesTheReport) {
  TestLoop r;
  std::string seen;
  {
    Future<int> future = r.loop.create_future<int>();
    future.add_done_callback([&](Future<int>& f) { seen = describe_exception(f.exception()); });
    future.set_exception(ValueError("lost"));
  }
  run_one_turn(r.loop);
  EXPECT_EQ(seen, "ValueError: lost");
  EXPECT_TRUE(r.reports.empty());
}

TEST(NeverRetrieved, ClosingTheLoopDropsTheQueuedCallbacksAndThenReports) {
  TestLoop r;
  bool ran = false;
  {
    Future<int> future = r.loop.create_future<int>();
    future.add_done_callback([&](Future<int>&) { ran = true; });
    future.set_exception(ValueError("lost"));
  }
  r.loop.close();
  EXPECT_FALSE(ran);
  EXPECT_EQ(r.reports, std::vector<std::string>{kReport});
}

TEST(NeverRetrieved, SystemExitFromTheHandlerIsWrittenOutAndDroppedNotThrownFromADestructor) {
  // CPython: "Exception ignored in: ..." on stderr, and the program goes on.
  VirtualClock clock;
  EventLoop loop(clock);
  loop.set_exception_handler([](EventLoop&, const ExceptionContext&) { throw SystemExit(2); });
  ::testing::internal::CaptureStderr();
  {
    Future<int> future = loop.create_future<int>();
    future.set_exception(ValueError("lost"));
  }  // a throwing destructor would std::terminate() here
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("Exception ignored"), std::string::npos) << err;
  EXPECT_NE(err.find("SystemExit"), std::string::npos) << err;
}

TEST(NeverRetrieved, WithoutACustomHandlerTheDefaultOneWritesToStandardError) {
  VirtualClock clock;
  EventLoop loop(clock);
  ::testing::internal::CaptureStderr();
  {
    Future<int> future = loop.create_future<int>();
    future.set_exception(ValueError("lost"));
  }
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("Future exception was never retrieved"), std::string::npos) << err;
  EXPECT_NE(err.find("\nfuture: <Future finished exception=ValueError('lost')>"), std::string::npos)
      << err;  // asyncio prints every key of the report
}

}  // namespace
}  // namespace looplab
