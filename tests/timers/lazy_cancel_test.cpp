// Lazy cancellation and asyncio's compaction rule (asyncio-semantics.md 2.4).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"
#include "timers/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

// Schedules `count` timers an hour or more away and cancels the first `cancelled` of them.
std::vector<TimerHandle> schedule_far_timers(EventLoop& loop, int count, int cancelled) {
  std::vector<TimerHandle> timers;
  for (int i = 0; i < count; ++i)
    timers.push_back(loop.call_later(1h + std::chrono::seconds(i), [] {}));
  for (int i = 0; i < cancelled; ++i) timers[i].cancel();
  return timers;
}

TEST(LazyCancel, ACancelledTimerNeverRunsAndStaysInTheHeapUntilItIsOnTop) {
  VirtualClock clock;
  EventLoop loop(clock);
  bool ran = false;
  loop.call_later(10s, [] {});
  TimerHandle timer = loop.call_later(20s, [&] { ran = true; });
  timer.cancel();
  EXPECT_TRUE(timer.cancelled());
  EXPECT_EQ(loop.scheduled_count(), 2u);
  EXPECT_EQ(loop.timer_cancelled_count(), 1u);
  loop.call_later(30s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_FALSE(ran);
  EXPECT_EQ(loop.scheduled_count(), 0u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
}

TEST(LazyCancel, CancellingTwiceCountsOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  TimerHandle timer = loop.call_later(1s, [] {});
  timer.cancel();
  timer.cancel();
  EXPECT_EQ(loop.timer_cancelled_count(), 1u);
}

TEST(LazyCancel, CancellingATimerThatAlreadyRanIsANoOpAndNotCounted) {
  VirtualClock clock;
  EventLoop loop(clock);
  int runs = 0;
  TimerHandle timer = loop.call_later(0s, [&] { ++runs; });
  testing::run_one_turn(loop);
  timer.cancel();
  EXPECT_TRUE(timer.cancelled());
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
  testing::run_one_turn(loop);
  EXPECT_EQ(runs, 1);
}

TEST(LazyCancel, CancellingReleasesTheCallbackAtOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  auto resource = std::make_shared<int>(1);
  std::weak_ptr<int> watch = resource;
  TimerHandle timer = loop.call_later(1h, [resource = std::move(resource)] {});
  timer.cancel();
  EXPECT_TRUE(watch.expired());
}

TEST(LazyCancel, OnlyCancelledTimersOnTopArePoppedEachTurn) {
  // base_events test__run_once_cancelled_event_cleanup: one live timer at
  // 3000 s, two cancelled at 3600 s, two cancelled at 100 s.
  VirtualClock clock;
  EventLoop loop(clock);
  loop.call_later(3000s, [] {});
  loop.call_later(3600s, [] {}).cancel();
  loop.call_later(3600s, [] {}).cancel();
  loop.call_later(100s, [] {}).cancel();
  loop.call_later(100s, [] {}).cancel();
  EXPECT_EQ(loop.timer_cancelled_count(), 4u);
  testing::run_one_turn(loop);
  EXPECT_EQ(loop.timer_cancelled_count(), 2u);
  EXPECT_EQ(loop.scheduled_count(), 3u);
}

TEST(LazyCancel, NoCompactionAtOneHundredTimersWhateverTheFraction) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.call_later(1s, [] {});  // a live timer on top: nothing to pop
  auto timers = schedule_far_timers(loop, 99, 60);
  testing::run_one_turn(loop);
  EXPECT_EQ(loop.scheduled_count(), 100u);
  EXPECT_EQ(loop.timer_cancelled_count(), 60u);
}

TEST(LazyCancel, CompactionAboveOneHundredTimersWhenMoreThanHalfAreCancelled) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.call_later(1s, [] {});
  auto timers = schedule_far_timers(loop, 100, 51);  // 101 timers, 51 cancelled: 0.505
  testing::run_one_turn(loop);
  EXPECT_EQ(loop.scheduled_count(), 50u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
}

TEST(LazyCancel, NoCompactionAtExactlyHalf) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.call_later(1s, [] {});
  auto timers = schedule_far_timers(loop, 101, 51);  // 102 timers, 51 cancelled: exactly 0.5
  testing::run_one_turn(loop);
  EXPECT_EQ(loop.scheduled_count(), 102u);
  EXPECT_EQ(loop.timer_cancelled_count(), 51u);
}

TEST(LazyCancel, TimersLeftAfterCompactionStillRunInDeadlineOrder) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<int> ran;
  std::vector<TimerHandle> timers;
  for (int i = 0; i < 300; ++i) {
    int deadline = (i * 7919) % 300;  // a scrambled order
    timers.push_back(loop.call_later(std::chrono::seconds(deadline + 1),
                                     [&ran, deadline] { ran.push_back(deadline); }));
  }
  for (int i = 0; i < 300; i += 3) timers[i].cancel();
  for (int i = 1; i < 300; i += 3) timers[i].cancel();  // two thirds cancelled
  loop.call_later(1000s, [&] { loop.stop(); });
  loop.run_forever();
  ASSERT_EQ(ran.size(), 100u);
  EXPECT_TRUE(std::is_sorted(ran.begin(), ran.end()));
}

TEST(LazyCancel, CancellingAfterCloseOrAfterTheLoopIsGoneIsSafe) {
  TimerHandle kept;
  {
    VirtualClock clock;
    EventLoop loop(clock);
    TimerHandle closed_first = loop.call_later(1s, [] {});
    kept = loop.call_later(2s, [] {});
    loop.close();
    closed_first.cancel();  // the loop dropped it: nothing to count
    EXPECT_EQ(loop.timer_cancelled_count(), 0u);
  }
  kept.cancel();  // the loop no longer exists; ASan would catch a dangling use
  EXPECT_TRUE(kept.cancelled());
}

TEST(LazyCancel, ATimerDueInTheSameTurnCanBeCancelledByAnEarlierCallback) {
  VirtualClock clock;
  EventLoop loop(clock);
  bool ran = false;
  TimerHandle second;
  loop.call_later(1s, [&] { second.cancel(); });
  second = loop.call_later(1s, [&] { ran = true; });
  loop.call_later(2s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_FALSE(ran);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);  // it had left the heap: not counted
}

}  // namespace
}  // namespace looplab
