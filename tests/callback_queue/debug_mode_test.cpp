// Debug mode: slow callbacks are reported; foreign threads are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

TEST(DebugMode, ASlowCallbackIsReportedWithItsHandle) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.set_debug(true);
  EXPECT_EQ(loop.slow_callback_duration, 100ms);
  loop.call_soon([&] { clock.advance(150ms); });  // "takes" 150 ms without waiting
  CaptureStderr();
  testing::run_one_turn(loop);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("Executing <Handle created at debug_mode_test.cpp:"), std::string::npos)
      << err;
  EXPECT_NE(err.find("took 0.150 seconds"), std::string::npos) << err;
}

TEST(DebugMode, FastCallbacksAndNonDebugLoopsAreNotReported) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.set_debug(true);
  loop.slow_callback_duration = 50ms;
  loop.call_soon([&] { clock.advance(49ms); });
  CaptureStderr();
  testing::run_one_turn(loop);
  loop.set_debug(false);
  loop.call_soon([&] { clock.advance(10s); });
  testing::run_one_turn(loop);
  EXPECT_EQ(GetCapturedStderr(), "");
}

TEST(DebugModeThreads, CallSoonFromAForeignThreadWhileRunningIsAnError) {
  EventLoop loop;
  loop.set_debug(true);
  std::string error;
  loop.call_soon([&] {
    std::thread foreign([&] {
      try {
        loop.call_soon([] {});
      } catch (const RuntimeError& e) {
        error = e.what();
      }
    });
    foreign.join();
  });
  testing::run_one_turn(loop);
#if LOOPLAB_STAGE >= 9
  // Stage 09 has the fix to offer, and the error says so (asyncio's does not).
  EXPECT_EQ(error,
            "Non-thread-safe operation invoked on an event loop other than the current one; "
            "from another thread, use call_soon_threadsafe()");
#else
  EXPECT_EQ(error, "Non-thread-safe operation invoked on an event loop other than the current one");
#endif
}

TEST(DebugModeThreads, AForeignThreadMayScheduleWhileTheLoopIsNotRunning) {
  EventLoop loop;
  loop.set_debug(true);
  std::thread([&] { loop.call_soon([] {}); }).join();  // asyncio checks only while running
  bool ran = false;
  loop.call_soon([&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace looplab
