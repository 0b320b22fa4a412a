// Who keeps a task alive. A pending task holds itself (the loop's queue and
// the future it waits for hold it in CPython), so a task nobody holds runs to
// its end. Closing (or destroying) a loop with tasks still pending destroys
// them, frames and all, and reports each: "Task was destroyed but it is
// pending!" (Task.__del__ in CPython, when the collector finds it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::DestructionCounter;
using testing::Log;
using testing::TestLoop;

Coro<void> sleeps_forever(Future<int> never, DestructionCounter) { co_await never; }

TEST(Lifetime, ClosingALoopWithAPendingTaskReportsAndDestroysIt) {
  TestLoop t;
  int destroyed = 0;
  Future<int> never = t.loop.create_future<int>();
  Task<void> task = create_task(t.loop, sleeps_forever(never, DestructionCounter(&destroyed)));
  task.set_name("stuck");
  t.turn();
  EXPECT_EQ(destroyed, 0);
  std::vector<std::string> reports;  // asyncio's message; the task in its own key
  t.loop.set_exception_handler([&reports](EventLoop&, const ExceptionContext& context) {
    reports.push_back(context.message + " | task: " + context.task->repr());
  });
  t.loop.close();
  EXPECT_EQ(reports,
            std::vector<std::string>{
                "Task was destroyed but it is pending! | task: <Task pending name='stuck'>"});
  EXPECT_EQ(destroyed, 1);  // the frame went with it
  EXPECT_TRUE(all_tasks(t.loop).empty());
  EXPECT_FALSE(task.done());  // still pending, but never to run again
}

TEST(Lifetime, ATaskThatNeverStartedIsReportedToo) {
  TestLoop t;
  int destroyed = 0;
  Future<int> never = t.loop.create_future<int>();
  (void)create_task(t.loop, sleeps_forever(never, DestructionCounter(&destroyed)));
  t.loop.close();
  EXPECT_EQ(t.reports.size(), 1u);
  EXPECT_EQ(destroyed, 1);
}

TEST(Lifetime, DestroyingTheLoopWithoutClosingItReportsToo) {
  std::vector<std::string> reports;
  int destroyed = 0;
  {
    VirtualClock clock;
    EventLoop loop(clock);
    loop.set_exception_handler(
        [&](EventLoop&, const ExceptionContext& context) { reports.push_back(context.message); });
    Future<int> never = loop.create_future<int>();
    (void)create_task(loop, sleeps_forever(never, DestructionCounter(&destroyed)));
    testing::run_one_turn(loop);
  }
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].starts_with("Task was destroyed but it is pending!"));
  EXPECT_EQ(destroyed, 1);
}

TEST(Lifetime, FinishedTasksAreNotReportedAtClose) {
  TestLoop t;
  auto body = []() -> Coro<int> { co_return 1; };
  Task<int> task = create_task(t.loop, body);
  t.turn();
  t.loop.close();
  EXPECT_TRUE(t.reports.empty());
}

Coro<void> sets_flag_later(bool* flag, DestructionCounter) {
  co_await sleep(1s);
  co_await sleep(0s);
  *flag = true;
}

TEST(Lifetime, APendingTaskNobodyHoldsStillRunsToItsEnd) {
  TestLoop t;
  bool finished = false;
  int destroyed = 0;
  (void)create_task(t.loop, sets_flag_later(&finished, DestructionCounter(&destroyed)));
  // Nothing outside holds the task; run the loop until its timer is gone.
  t.loop.call_later(2s, [&] { t.loop.stop(); });
  t.loop.run_forever();
  EXPECT_TRUE(finished);
  EXPECT_EQ(destroyed, 1);  // and, once finished, it was freed
  EXPECT_TRUE(all_tasks(t.loop).empty());
  EXPECT_TRUE(t.reports.empty());
}

TEST(Lifetime, AFinishedTasksFrameIsFreedWhileItsHandleLivesOn) {
  TestLoop t;
  bool finished = false;
  int destroyed = 0;
  Task<void> task = create_task(t.loop, sets_flag_later(&finished, DestructionCounter(&destroyed)));
  t.loop.run_until_complete(task);
  EXPECT_EQ(destroyed, 1);  // the frame goes when the coroutine ends, not with the last handle
  EXPECT_TRUE(task.done());
}

TEST(Lifetime, AWaitingTaskIsReleasedWithTheFutureItWaitsFor) {
  // The future's done callback holds the task; dropping the future (here by
  // closing the loop, which destroys the task's frame that held it) breaks the cycle.
  TestLoop t;
  int destroyed = 0;
  {
    Future<int> never = t.loop.create_future<int>();
    (void)create_task(t.loop, sleeps_forever(never, DestructionCounter(&destroyed)));
    t.turn();
  }
  EXPECT_EQ(destroyed, 0);  // pending: alive though no one outside holds it
  t.loop.close();
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace looplab
