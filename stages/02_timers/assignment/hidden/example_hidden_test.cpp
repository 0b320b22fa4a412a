// An example of an instructor's hidden tests for assignment 02 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

TEST(HiddenExample, TimersRunInDeadlineOrderNotInTheOrderTheyWereMade) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<int> ran;
  loop.call_later(30ms, [&] { ran.push_back(3); });
  loop.call_later(10ms, [&] { ran.push_back(1); });
  loop.call_later(20ms, [&] {
    ran.push_back(2);
    loop.call_later(15ms, [&] {
      ran.push_back(4);
      loop.stop();
    });
  });
  loop.run_forever();
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(loop.time().time_since_epoch(), std::chrono::milliseconds(35));
}

TEST(HiddenExample, ManyCancelledTimersAreDroppedFromTheHeap) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<TimerHandle> timers;
  for (int i = 0; i < 300; ++i) timers.push_back(loop.call_later(1h, [] {}));
  for (int i = 0; i < 200; ++i) timers[static_cast<std::size_t>(i)].cancel();
  loop.call_soon([&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(loop.scheduled_count(), 100U);
}

}  // namespace
}  // namespace looplab
