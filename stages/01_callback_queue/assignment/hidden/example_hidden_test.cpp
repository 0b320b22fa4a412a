// An example of an instructor's hidden tests for assignment 01 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// The grader builds them against the student's stage and scores them as the
// group "hidden", shown to the student once grades are published.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

TEST(HiddenExample, ACancelledHandleInTheMiddleIsSkippedAndTheRestKeepOrder) {
  EventLoop loop;
  std::vector<int> ran;
  loop.call_soon([&] { ran.push_back(1); });
  Handle middle = loop.call_soon([&] { ran.push_back(2); });
  loop.call_soon([&] { ran.push_back(3); });
  middle.cancel();
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<int>{1, 3}));
}

TEST(HiddenExample, AFailingCallbackIsReportedAndTheTurnGoesOn) {
  EventLoop loop;
  std::vector<std::string> seen;
  loop.set_exception_handler(
      [&](EventLoop&, const ExceptionContext& context) { seen.push_back(context.message); });
  loop.call_soon([] { throw std::runtime_error("boom"); });
  loop.call_soon([&] { seen.push_back("next"); });
  testing::run_one_turn(loop);
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0].rfind("Exception in callback", 0), 0U) << seen[0];
  EXPECT_EQ(seen[1], "next");
}

}  // namespace
}  // namespace looplab
