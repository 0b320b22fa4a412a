// Bad timer input: a clear error, and a loop that still works.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using Seconds = std::chrono::duration<double>;

std::string value_error(EventLoop& loop, double delay) {
  try {
    loop.call_later(Seconds(delay), [] {});
  } catch (const ValueError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TimerBadInput, ANaNDelayIsAValueErrorAndTheLoopCarriesOn) {
  VirtualClock clock;
  EventLoop loop(clock);
  EXPECT_EQ(value_error(loop, std::nan("")), "Invalid delay: NaN (not a number)");
  EXPECT_EQ(loop.scheduled_count(), 0u);
  bool ran = false;
  loop.call_later(Seconds(0.5), [&] { ran = true; });
  loop.call_later(1s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_TRUE(ran);
}

TEST(TimerBadInput, DelaysBeyondAHundredYearsNeverComeAndBelowMinusAHundredAreDueNow) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<std::string> ran;
  auto log = [&ran](const char* what) { return [&ran, what] { ran.push_back(what); }; };
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  loop.call_later(Seconds(kInfinity), log("inf"));
  loop.call_later(Seconds(1e12), log("1e12 s"));
  loop.call_later(std::chrono::seconds::max(), log("seconds::max()"));
  loop.call_later(std::chrono::nanoseconds::max(), log("nanoseconds::max()"));
  loop.call_later(Seconds(-kInfinity), log("-inf"));
  loop.call_later(std::chrono::hours::min(), log("hours::min()"));
  loop.call_later(1s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(ran, (std::vector<std::string>{"-inf", "hours::min()"}))
      << "asyncio's call_later(inf) never comes, call_later(-inf) is due at once; "
         "no delay may overflow time() + delay";
  EXPECT_EQ(loop.scheduled_count(), 4u) << "the four that never come are still scheduled";
}

TEST(TimerBadInput, SchedulingOnAClosedLoop) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.close();
  EXPECT_THROW(loop.call_later(1s, [] {}), RuntimeError);
  EXPECT_THROW(loop.call_at(loop.time(), [] {}), RuntimeError);
}

TEST(TimerBadInput, AnEmptyCallbackIsATypeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::function<void()> empty;
  EXPECT_THROW(loop.call_later(1s, empty), TypeError);
  EXPECT_THROW(loop.call_at(loop.time(), empty), TypeError);
  EXPECT_EQ(loop.scheduled_count(), 0u);
}

TEST(TimerBadInput, AClosedLoopIsReportedBeforeAnEmptyCallback) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.close();
  std::function<void()> empty;
  EXPECT_THROW(loop.call_later(1s, empty), RuntimeError);
  EXPECT_THROW(loop.call_at(loop.time(), empty), RuntimeError);
}

TEST(TimerBadInput, CloseDropsPendingTimersWithoutRunningThem) {
  VirtualClock clock;
  EventLoop loop(clock);
  bool ran = false;
  loop.call_later(1s, [&] { ran = true; });
  loop.close();
  EXPECT_EQ(loop.scheduled_count(), 0u);
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace looplab
