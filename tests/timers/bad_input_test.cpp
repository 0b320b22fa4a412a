// Bad timer input: a clear error, and a loop that still works.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

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

TEST(TimerBadInput, NaNAndInfiniteDelaysAreValueErrors) {
  VirtualClock clock;
  EventLoop loop(clock);
  EXPECT_EQ(value_error(loop, std::nan("")), "Invalid delay: NaN (not a number)");
  EXPECT_EQ(value_error(loop, std::numeric_limits<double>::infinity()), "Invalid delay: infinite");
  EXPECT_EQ(value_error(loop, -std::numeric_limits<double>::infinity()), "Invalid delay: infinite");
  EXPECT_EQ(value_error(loop, 1e12), "Invalid delay: more than 100 years");
  EXPECT_EQ(loop.scheduled_count(), 0u);
  bool ran = false;
  loop.call_later(Seconds(0.5), [&] { ran = true; });
  loop.call_later(1s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_TRUE(ran);
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
