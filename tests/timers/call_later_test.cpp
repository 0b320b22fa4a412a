// call_later, call_at and time(): deadlines decide the order; the loop sleeps until the next one.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"
#include "timers/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::seconds;

TEST(CallLater, TimersRunInDeadlineOrderNotCallOrder) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<std::string> ran;
  loop.call_later(300ms, [&] { ran.push_back("C"); });
  loop.call_later(100ms, [&] { ran.push_back("A"); });
  loop.call_later(200ms, [&] { ran.push_back("B"); });
  loop.call_later(1s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(ran, (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(seconds(loop.time()), 1.0);
}

TEST(CallLater, TheVirtualClockJumpsToEachDeadline) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<double> times;
  loop.call_later(250ms, [&] { times.push_back(seconds(loop.time())); });
  loop.call_later(2h, [&] {
    times.push_back(seconds(loop.time()));
    loop.stop();
  });
  loop.run_forever();
  EXPECT_EQ(times, (std::vector<double>{0.25, 7200.0}));
}

TEST(CallLater, CallAtUsesAbsoluteLoopTime) {
  VirtualClock clock;
  clock.advance(10s);
  EventLoop loop(clock);
  double fired = 0;
  TimerHandle timer = loop.call_at(loop.time() + 5s, [&] {
    fired = seconds(loop.time());
    loop.stop();
  });
  EXPECT_EQ(seconds(timer.when()), 15.0);
  loop.run_forever();
  EXPECT_EQ(fired, 15.0);
}

TEST(CallLater, ZeroAndNegativeDelaysAreDueNowAfterTheReadyCallbacks) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<std::string> ran;
  loop.call_later(0s, [&] { ran.push_back("B (call_later 0)"); });
  loop.call_later(-5s, [&] { ran.push_back("C (call_later -5s)"); });
  loop.call_soon([&] { ran.push_back("A (call_soon)"); });
  testing::run_one_turn(loop);  // all three in the same turn: ready first, then due timers
  EXPECT_EQ(ran,
            (std::vector<std::string>{"A (call_soon)", "C (call_later -5s)", "B (call_later 0)"}));
}

TEST(CallLater, FloatingPointDelaysWork) {
  VirtualClock clock;
  EventLoop loop(clock);
  TimerHandle timer = loop.call_later(std::chrono::duration<double>(1.5), [] {});
  EXPECT_EQ(seconds(timer.when()), 1.5);
}

TEST(CallLater, StopBeforeRunRunsOnlyTimersThatAreAlreadyDue) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<std::string> ran;
  loop.call_later(0s, [&] { ran.push_back("due"); });
  loop.call_later(1s, [&] { ran.push_back("later"); });
  testing::run_one_turn(loop);  // stop() makes the timeout 0: no sleeping
  EXPECT_EQ(ran, (std::vector<std::string>{"due"}));
  EXPECT_EQ(seconds(loop.time()), 0.0);
}

TEST(CallLater, ATimerAtExactlyNowIsDue) {
  VirtualClock clock;
  EventLoop loop(clock);
  bool ran = false;
  loop.call_at(loop.time(), [&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

TEST(CallLater, ATimerOneTickInTheFutureIsNotDueYet) {
  VirtualClock clock;
  EventLoop loop(clock);
  bool ran = false;
  loop.call_at(loop.time() + 1ns, [&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_FALSE(ran);
  clock.advance(1ns);
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

TEST(CallLater, TheLoopSleepsUntilTheNextDeadlineAndAtMostADay) {
  testing::RecordingClock clock;
  EventLoop loop(clock);
  loop.call_later(48h, [&] { loop.stop(); });
  loop.run_forever();
  ASSERT_EQ(clock.sleeps.size(), 2u);  // 24 h, then the remaining 24 h
  EXPECT_EQ(seconds(clock.sleeps[0]), 86400.0);
  EXPECT_EQ(seconds(clock.sleeps[1]), 172800.0);
}

TEST(CallLater, ACancelledTimerAtTheTopDoesNotShortenTheSleep) {
  testing::RecordingClock clock;
  EventLoop loop(clock);
  loop.call_later(1s, [] {}).cancel();
  loop.call_later(5s, [&] { loop.stop(); });
  loop.run_forever();
  ASSERT_EQ(clock.sleeps.size(), 1u);
  EXPECT_EQ(seconds(clock.sleeps[0]), 5.0);
}

TEST(CallLater, NothingReadyAndNoTimerIsStillAnError) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.call_later(1s, [] {});  // runs, then nothing is left
  EXPECT_THROW(loop.run_forever(), RuntimeError);
  EXPECT_EQ(seconds(loop.time()), 1.0);
}

TEST(CallLater, TheContextIsCapturedWhenTheTimerIsScheduled) {
  static ContextVar<std::string> request_id("request_id");
  VirtualClock clock;
  EventLoop loop(clock);
  std::string seen;
  request_id.set("req-1");
  loop.call_later(100ms, [&] {
    seen = request_id.get();
    loop.stop();
  });
  request_id.set("req-2");
  loop.run_forever();
  EXPECT_EQ(seen, "req-1");
  Context::current() = Context();
}

TEST(CallLater, AnExceptionInATimerGoesToTheHandlerWithTheTimersRepr) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::string message;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext& c) { message = c.message; });
  loop.call_later(1500ms, [] { throw ValueError("late boom"); });
  loop.call_later(2s, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(message.rfind(
                "Exception in callback <TimerHandle when=1.5 created at call_later_test.cpp:", 0),
            0u)
      << message;
}

TEST(CallLater, ATimersReprPutsWhenAfterCancelledAsPythonPrintsAFloat) {
  VirtualClock clock;
  EventLoop loop(clock);
  TimerHandle timer = loop.call_later(2s, [] {});
  EXPECT_EQ(timer.repr().rfind("<TimerHandle when=2.0 created at call_later_test.cpp:", 0), 0u)
      << timer.repr();
  timer.cancel();
  EXPECT_EQ(timer.repr(), "<TimerHandle cancelled when=2.0>");  // asyncio's, outside debug mode
  EXPECT_EQ(loop.call_later(100'000s, [] {}).repr().rfind("<TimerHandle when=100000.0 ", 0), 0u);
  EXPECT_EQ(loop.call_later(25us, [] {}).repr().rfind("<TimerHandle when=2.5e-05 ", 0), 0u);
}

TEST(CallLater, TheRealClockSleepsUntilTheDeadline) {
  SteadyClock clock;
  Clock::time_point deadline = clock.now() + 2ms;
  clock.sleep_until(deadline);
  EXPECT_GE(clock.now(), deadline);
  EXPECT_EQ(clock.resolution(), 1ns);
}

// asyncio's call_later(..., context=ctx) and call_at(..., context=ctx).
TEST(CallLater, CallLaterAndCallAtWithAContextRunTheCallbackInIt) {
  static ContextVar<std::string> request("request", "none");
  Context::current() = Context();
  VirtualClock clock;
  EventLoop loop(clock);
  request.set("given");
  Context given = Context::copy_current();
  request.set("caller");
  std::vector<std::string> seen;
  loop.call_later(
      std::chrono::seconds(1), [&] { seen.push_back("later " + request.get()); }, given);
  loop.call_at(
      loop.time() + std::chrono::seconds(2),
      [&] {
        seen.push_back("at " + request.get());
        loop.stop();
      },
      given);
  loop.run_forever();
  EXPECT_EQ(seen, (std::vector<std::string>{"later given", "at given"}));
  Context::current() = Context();
}

}  // namespace
}  // namespace looplab
