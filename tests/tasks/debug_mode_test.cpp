// Debug mode with tasks: a slow step is reported by the task it stepped, as
// asyncio's _format_handle() does, not by the loop's handle that ran it.
#include <gtest/gtest.h>

#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

using testing::TestLoop;

// Blocks the loop for 150 ms (virtual), waits, and blocks again.
Coro<void> blocker(VirtualClock* clock) {
  clock->advance(150ms);
  co_await sleep(10ms);
  clock->advance(150ms);
}

TEST(DebugModeTasks, ASlowStepIsReportedByItsTask) {
  TestLoop t;
  t.loop.set_debug(true);
  Task<void> task = create_task(t.loop, blocker(&t.clock), {.name = "blocker"});
  CaptureStderr();
  t.loop.run_until_complete(task);
  // First step: the task waits for its sleep afterwards; the second ends it
  // (its wakeup, a done callback of the sleep's future, ran it).
  EXPECT_EQ(GetCapturedStderr(),
            "Executing <Task pending name='blocker'> took 0.150 seconds\n"
            "Executing <Task finished name='blocker' result=None> took 0.150 seconds\n");
}

TEST(DebugModeTasks, ATaskNobodyHoldsIsStillThereForTheReportOfItsLastStep) {
  // Its last step drops the task's last reference but the loop's own.
  TestLoop t;
  t.loop.set_debug(true);
  (void)create_task(t.loop, blocker(&t.clock), {.name = "unheld"});
  CaptureStderr();
  t.loop.run_until_complete(sleep(t.loop, 500ms));
  EXPECT_EQ(GetCapturedStderr(),
            "Executing <Task pending name='unheld'> took 0.150 seconds\n"
            "Executing <Task finished name='unheld' result=None> took 0.150 seconds\n");
}

TEST(DebugModeTasks, ASlowPlainCallbackIsStillReportedByItsHandle) {
  TestLoop t;
  t.loop.set_debug(true);
  Task<void> task = create_task(t.loop, blocker(&t.clock), {.name = "blocker"});
  t.loop.run_until_complete(task);  // a task stepped in an earlier turn
  t.loop.call_soon([&t] { t.clock.advance(150ms); });
  CaptureStderr();
  t.turn();
  std::string err = GetCapturedStderr();
  EXPECT_EQ(err.rfind("Executing <Handle created at debug_mode_test.cpp:", 0), 0u) << err;
}

}  // namespace
}  // namespace looplab
