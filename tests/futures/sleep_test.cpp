// sleep(loop, delay) (asyncio-semantics.md 5.6): a future completed by a
// timer. Cancelling the future cancels the timer (asyncio's sleep cancels
// it in its `finally`), which stays in the heap until the loop drops it
// lazily; dropping the future cancels the timer too.
#include "looplab/sleep.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::run_one_turn;
using testing::seconds;

TEST(Sleep, CompletesAtTheDelay) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 250ms);
  EXPECT_FALSE(done.done());
  EXPECT_EQ(loop.scheduled_count(), 1u);
  double completed_at = -1;
  done.add_done_callback([&](Future<>&) { completed_at = seconds(loop.time()); });
  loop.run_until_complete(done);
  EXPECT_DOUBLE_EQ(completed_at, 0.25);
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 0.25);
  EXPECT_EQ(loop.scheduled_count(), 0u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
}

TEST(Sleep, IsStillPendingJustBeforeTheDelay) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 250ms);
  std::vector<std::string> seen;
  loop.call_later(249ms, [&] { seen.push_back(done.done() ? "done" : "pending"); });
  loop.run_until_complete(done);
  EXPECT_EQ(seen, std::vector<std::string>{"pending"});
}

TEST(Sleep, TheTimerCompletesTheFutureAndItsCallbacksRunOneTurnLater) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 100ms);
  std::vector<std::string> order;
  done.add_done_callback([&](Future<>&) { order.push_back("done callback"); });
  // Same deadline, scheduled after the sleep's timer: runs right after it.
  loop.call_later(100ms, [&] {
    order.push_back(done.done() ? "timer: sleep already done" : "timer: sleep pending");
  });
  loop.run_until_complete(done);
  EXPECT_EQ(order, (std::vector<std::string>{"timer: sleep already done", "done callback"}));
}

TEST(Sleep, AZeroDelayCompletesInTheFirstTurnAndItsCallbacksRunInTheSecond) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 0ms);
  int calls = 0;
  done.add_done_callback([&](Future<>&) { ++calls; });
  run_one_turn(loop);
  EXPECT_TRUE(done.done());
  EXPECT_EQ(calls, 0);
  run_one_turn(loop);
  EXPECT_EQ(calls, 1);
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 0.0);
}

TEST(Sleep, SleepsCompleteInDeadlineOrderEachAtItsTime) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<std::string> order;
  std::vector<Future<>> sleeps;
  for (int ms : {300, 100, 200}) {
    sleeps.push_back(sleep(loop, std::chrono::milliseconds(ms)));
    sleeps.back().add_done_callback([&order, &loop, ms](Future<>&) {
      order.push_back(std::to_string(ms) + "@" + std::to_string(seconds(loop.time())).substr(0, 5));
    });
  }
  loop.run_until_complete(sleeps[0]);
  EXPECT_EQ(order, (std::vector<std::string>{"100@0.100", "200@0.200", "300@0.300"}));
}

TEST(Sleep, RunUntilCompleteOfATemporarySleep) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.run_until_complete(sleep(loop, 2s));
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 2.0);
}

TEST(Sleep, CancellingTheFutureCancelsItsTimerWhichStaysInTheHeapUntilTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 1s);
  EXPECT_EQ(loop.scheduled_count(), 1u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
  EXPECT_TRUE(done.cancel());
  EXPECT_TRUE(done.cancelled());
  EXPECT_EQ(loop.timer_cancelled_count(), 1u);  // counted...
  EXPECT_EQ(loop.scheduled_count(), 1u);        // ...and dropped lazily
  run_one_turn(loop);
  EXPECT_EQ(loop.scheduled_count(), 0u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 0.0);  // nobody waited for it
}

TEST(Sleep, ACancelledSleepRaisesCancelledErrorWithTheMessageWithoutWaitingForItsDeadline) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 10s);
  loop.call_later(500ms, [&] { done.cancel("woken early"); });
  try {
    loop.run_until_complete(done);
    FAIL() << "no CancelledError";
  } catch (const CancelledError& error) {
    EXPECT_EQ(error.message(), "woken early");
  }
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 0.5);
  EXPECT_EQ(loop.scheduled_count(), 0u);
}

TEST(Sleep, CancelAfterCompletionReturnsFalseAndCancelsNoTimer) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, 100ms);
  loop.run_until_complete(done);
  EXPECT_FALSE(done.cancel());
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
  EXPECT_FALSE(done.cancelled());
}

TEST(Sleep, DroppingThePendingFutureCancelsItsTimer) {
  VirtualClock clock;
  EventLoop loop(clock);
  int calls = 0;
  {
    Future<> done = sleep(loop, 1s);
    done.add_done_callback([&](Future<>&) { ++calls; });
  }
  EXPECT_EQ(loop.timer_cancelled_count(), 1u);
  EXPECT_EQ(loop.scheduled_count(), 1u);
  // Past the deadline: the timer must not run (it would touch a freed future).
  loop.call_later(2s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 2.0);
  EXPECT_EQ(calls, 0);  // a dropped sleep never completes
  EXPECT_EQ(loop.scheduled_count(), 0u);
}

TEST(Sleep, DroppingTheFutureAfterItsTimerFiredStillRunsItsCallbacks) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::optional<Future<>> holder = sleep(loop, 100ms);
  int calls = 0;
  holder->add_done_callback([&](Future<>&) { ++calls; });
  // Runs in the same turn as the sleep's timer, after it: the future is done
  // and its callback queued, which keeps it alive.
  loop.call_later(100ms, [&] { holder.reset(); });
  loop.call_later(150ms, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
}

TEST(Sleep, ManyCancelledSleepsAreDroppedByAsynciosCompactionRule) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<Future<>> sleeps;
  for (int i = 0; i < 200; ++i) sleeps.push_back(sleep(loop, std::chrono::seconds(1 + i)));
  for (int i = 0; i < 150; ++i) sleeps[static_cast<std::size_t>(i)].cancel();
  EXPECT_EQ(loop.timer_cancelled_count(), 150u);
  EXPECT_EQ(loop.scheduled_count(), 200u);
  run_one_turn(loop);  // more than 100 timers, more than half cancelled: rebuilt
  EXPECT_EQ(loop.scheduled_count(), 50u);
  EXPECT_EQ(loop.timer_cancelled_count(), 0u);
}

}  // namespace
}  // namespace looplab
