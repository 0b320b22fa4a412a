// Extension lab 02: the timing wheel's contract. Each test states one rule of
// timer_wheel.hpp; the last compares the wheel with a sort of the same timers.
#include "looplab/lab/timer_wheel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <vector>

namespace looplab::lab {
namespace {

using namespace std::chrono_literals;
using Timers = std::vector<Ref<TimerHandleState>>;

const Clock::time_point kStart{};

Ref<TimerHandleState> timer_at(Clock::duration after_start) {
  return Ref<TimerHandleState>(new TimerHandleState(
      kStart + after_start, [] {}, Context(), SourceLocation::current()));
}

// The deadlines of `timers`, in ms after kStart.
std::vector<long> deadlines_ms(const Timers& timers) {
  std::vector<long> ms;
  for (const auto& timer : timers)
    ms.push_back(static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(timer->when() - kStart).count()));
  return ms;
}

TEST(TimerWheel, BadShapesAreRefused) {
  EXPECT_THROW(TimerWheel(kStart, 0ms, 8), std::invalid_argument);
  EXPECT_THROW(TimerWheel(kStart, -1ms, 8), std::invalid_argument);
  EXPECT_THROW(TimerWheel(kStart, 1ms, 0), std::invalid_argument);
}

TEST(TimerWheel, AnEmptyWheelHasNothingDueAndNoEarliest) {
  TimerWheel wheel(kStart, 1ms, 8);
  Timers due;
  wheel.advance(kStart + 1s, due);
  EXPECT_TRUE(due.empty());
  EXPECT_TRUE(wheel.empty());
  EXPECT_FALSE(wheel.earliest().has_value());
}

TEST(TimerWheel, ATimerIsDueAtItsDeadlineNotBefore) {
  TimerWheel wheel(kStart, 1ms, 8);
  wheel.push(timer_at(5ms));
  EXPECT_EQ(wheel.size(), 1u);
  Timers due;
  wheel.advance(kStart + 4ms, due);
  EXPECT_TRUE(due.empty());
  wheel.advance(kStart + 5ms - 1ns, due);
  EXPECT_TRUE(due.empty()) << "same tick, but the deadline has not come";
  wheel.advance(kStart + 5ms, due);
  EXPECT_EQ(deadlines_ms(due), std::vector<long>{5});
  EXPECT_TRUE(wheel.empty());
}

TEST(TimerWheel, DueTimersComeOutInDeadlineOrderEqualOnesInPushOrder) {
  TimerWheel wheel(kStart, 1ms, 4);
  std::vector<Ref<TimerHandleState>> pushed = {timer_at(3ms), timer_at(1ms), timer_at(3ms),
                                               timer_at(2ms)};
  for (const auto& timer : pushed) wheel.push(timer);
  Timers due;
  wheel.advance(kStart + 3ms, due);
  ASSERT_EQ(due.size(), 4u);
  EXPECT_EQ(due[0].get(), pushed[1].get());
  EXPECT_EQ(due[1].get(), pushed[3].get());
  EXPECT_EQ(due[2].get(), pushed[0].get()) << "equal deadlines: the one pushed first";
  EXPECT_EQ(due[3].get(), pushed[2].get());
}

TEST(TimerWheel, ATimerTurnsAwayWaitsForItsOwnTurn) {
  TimerWheel wheel(kStart, 1ms, 4);  // one turn is 4 ms
  wheel.push(timer_at(9ms));         // same bucket as 1 ms and 5 ms
  Timers due;
  for (auto now : {1ms, 5ms, 8ms}) {
    wheel.advance(kStart + now, due);
    EXPECT_TRUE(due.empty()) << "due at 9 ms, not at " << now.count() << " ms";
  }
  wheel.advance(kStart + 9ms, due);
  EXPECT_EQ(deadlines_ms(due), std::vector<long>{9});
}

TEST(TimerWheel, ALongJumpVisitsEveryBucketAndReturnsAllThatIsDue) {
  TimerWheel wheel(kStart, 1ms, 4);
  for (int ms : {7, 1, 30, 12, 2, 100}) wheel.push(timer_at(std::chrono::milliseconds(ms)));
  Timers due;
  wheel.advance(kStart + 50ms, due);  // more than twelve turns at once
  EXPECT_EQ(deadlines_ms(due), (std::vector<long>{1, 2, 7, 12, 30}));
  EXPECT_EQ(wheel.size(), 1u);
  EXPECT_EQ(wheel.earliest(), kStart + 100ms);
}

TEST(TimerWheel, APassedDeadlineIsDueAtTheNextAdvance) {
  TimerWheel wheel(kStart, 1ms, 8);
  Timers due;
  wheel.advance(kStart + 20ms, due);
  wheel.push(timer_at(3ms));  // already passed
  wheel.push(timer_at(20ms));
  EXPECT_EQ(wheel.earliest(), kStart + 3ms);
  wheel.advance(kStart + 20ms, due);
  EXPECT_EQ(deadlines_ms(due), (std::vector<long>{3, 20}));
}

TEST(TimerWheel, CancelledTimersAreDroppedNotReturned) {
  TimerWheel wheel(kStart, 1ms, 8);
  auto kept = timer_at(2ms);
  auto cancelled = timer_at(1ms);
  wheel.push(kept);
  wheel.push(cancelled);
  cancelled->cancel();
  EXPECT_EQ(wheel.size(), 2u) << "lazy: a cancelled timer stays until its bucket is visited";
  Timers due;
  wheel.advance(kStart + 2ms, due);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].get(), kept.get());
  EXPECT_TRUE(wheel.empty());
}

TEST(TimerWheel, EarliestFindsTheSmallestDeadlineAcrossTurns) {
  TimerWheel wheel(kStart, 1ms, 4);
  wheel.push(timer_at(13ms));
  wheel.push(timer_at(6ms));
  wheel.push(timer_at(42ms));
  EXPECT_EQ(wheel.earliest(), kStart + 6ms);
  Timers due;
  wheel.advance(kStart + 6ms, due);
  EXPECT_EQ(wheel.earliest(), kStart + 13ms);
  wheel.advance(kStart + 13ms, due);
  EXPECT_EQ(wheel.earliest(), kStart + 42ms) << "every timer left is turns away";
}

TEST(TimerWheel, GoingBackInTimeReturnsOnlyWhatIsDueByThen) {
  TimerWheel wheel(kStart, 1ms, 8);
  Timers due;
  wheel.advance(kStart + 10ms, due);
  wheel.push(timer_at(12ms));
  wheel.advance(kStart + 5ms, due);
  EXPECT_TRUE(due.empty());
  wheel.advance(kStart + 12ms, due);
  EXPECT_EQ(deadlines_ms(due), std::vector<long>{12});
}

// 2,000 random timers (a third cancelled), the wheel advanced in random
// steps: every timer comes out once, at its time, in the order of a stable
// sort by deadline.
TEST(TimerWheel, AgreesWithASortOfTheSameTimers) {
  std::mt19937 random(2);
  std::uniform_int_distribution<int> deadline_us(0, 50'000);
  std::uniform_int_distribution<int> step_us(1, 3'000);
  TimerWheel wheel(kStart, 250us, 16);
  Timers pushed;
  for (int i = 0; i < 2'000; ++i) {
    pushed.push_back(timer_at(std::chrono::microseconds(deadline_us(random) / 100 * 100)));
    wheel.push(pushed.back());
    if (i % 3 == 0) pushed.back()->cancel();
  }
  Timers expected;
  std::copy_if(pushed.begin(), pushed.end(), std::back_inserter(expected),
               [](const auto& t) { return !t->cancelled(); });
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a->when() < b->when(); });

  Timers due;
  Clock::time_point now = kStart;
  while (!wheel.empty()) {
    now += std::chrono::microseconds(step_us(random));
    std::size_t before = due.size();
    wheel.advance(now, due);
    for (std::size_t i = before; i < due.size(); ++i) ASSERT_LE(due[i]->when(), now);
    if (!wheel.empty()) {
      ASSERT_GT(*wheel.earliest(), now);
    }
  }
  ASSERT_EQ(due.size(), expected.size());
  for (std::size_t i = 0; i < due.size(); ++i)
    EXPECT_EQ(due[i].get(), expected[i].get()) << "position " << i;
}

}  // namespace
}  // namespace looplab::lab
