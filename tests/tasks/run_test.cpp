// run(main) (asyncio.run): a fresh loop runs `main` as a task; what is left
// pending afterwards is cancelled and given the turns its cleanup needs
// (asyncio.runners._cancel_all_tasks); then the loop is closed.
#include "looplab/run.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;

Coro<int> answer_later() {
  co_await sleep(2s);
  co_return 42;
}

TEST(Run, ReturnsWhatMainReturns) {
  VirtualClock clock;
  EXPECT_EQ(run(answer_later(), clock), 42);
  EXPECT_DOUBLE_EQ(testing::seconds(clock.now()), 2.0);
}

TEST(Run, AVoidMainRuns) {
  VirtualClock clock;
  bool ran = false;
  auto body = [](bool* flag) -> Coro<void> {
    co_await sleep(0s);
    *flag = true;
  };
  run(body(&ran), clock);
  EXPECT_TRUE(ran);
}

TEST(Run, MainRunsAsATaskOnARunningLoop) {
  VirtualClock clock;
  auto body = []() -> Coro<bool> {
    co_return TaskBase::current() != nullptr&& get_running_loop().is_running();
  };
  EXPECT_TRUE(run(body(), clock));
}

Coro<void> leftover(Log* log, std::string name) {
  std::exception_ptr cancelled;
  try {
    co_await sleep(100s);
    log->push_back(name + " finished?!");
  } catch (const CancelledError&) {
    cancelled = std::current_exception();  // (no co_await inside a handler in C++)
  }
  if (cancelled) {
    log->push_back(name + " cleanup");
    co_await sleep(0s);  // cleanup may await: it gets its turns
    log->push_back(name + " cleanup done");
    std::rethrow_exception(cancelled);
  }
}

Coro<int> main_leaves_a_task(Log* log) {
  (void)create_task(get_running_loop(), leftover(log, "leftover"));
  co_await sleep(1s);
  log->push_back("main returns");
  co_return 1;
}

Coro<int> logs_that_it_ran(Log* log) {
  log->push_back("ran");
  co_return 1;
}

TEST(Run, RunUntilCompleteOnARunningLoopRefusesTheCoroutineBeforeItRuns) {
  VirtualClock clock;
  EventLoop loop(clock);
  Log log;
  std::string error;
  loop.call_soon([&] {
    error = testing::thrown_by([&] { (void)loop.run_until_complete(logs_that_it_ran(&log)); });
  });
  testing::run_one_turn(loop);
  testing::run_one_turn(loop);
  EXPECT_EQ(error, "RuntimeError: This event loop is already running");
  EXPECT_EQ(log, Log{}) << "refused before it became a task, the coroutine never runs";
  EXPECT_TRUE(all_tasks(loop).empty());
}

TEST(Run, CancelsLeftoverTasksAndLetsTheirCleanupRun) {
  VirtualClock clock;
  Log log;
  EXPECT_EQ(run(main_leaves_a_task(&log), clock), 1);
  EXPECT_EQ(log, (Log{"main returns", "leftover cleanup", "leftover cleanup done"}));
  EXPECT_DOUBLE_EQ(testing::seconds(clock.now()), 1.0);  // nobody waited 100 s
}

Coro<int> main_fails(Log* log) {
  (void)create_task(get_running_loop(), leftover(log, "leftover"));
  co_await sleep(0s);
  throw ValueError("main failed");
}

TEST(Run, MainsExceptionComesOutAfterTheCleanup) {
  VirtualClock clock;
  Log log;
  EXPECT_EQ(testing::thrown_by([&] { run(main_fails(&log), clock); }), "ValueError: main failed");
  EXPECT_EQ(log, (Log{"leftover cleanup", "leftover cleanup done"}));
}

Coro<void> fails_when_cancelled() {
  try {
    co_await sleep(100s);
  } catch (const CancelledError&) {
    throw ValueError("cleanup failed");
  }
}

Coro<int> main_leaves_a_failing_task() {
  (void)create_task(get_running_loop(), fails_when_cancelled());
  co_await sleep(0s);
  co_return 3;
}

TEST(Run, ALeftoverThatFailsInItsCleanupIsReported) {
  VirtualClock clock;
  ::testing::internal::CaptureStderr();
  int result = run(main_leaves_a_failing_task(), clock);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(result, 3);
  EXPECT_NE(err.find("unhandled exception during asyncio.run() shutdown"), std::string::npos)
      << err;
  EXPECT_NE(err.find("ValueError: cleanup failed"), std::string::npos) << err;
  EXPECT_NE(err.find("\ntask: <Task finished name='Task-"), std::string::npos) << err;
  EXPECT_EQ(err.find("never retrieved"), std::string::npos) << err;  // retrieved by the report
}

TEST(Run, TheLoopIsClosedCallbacksLeftAreDroppedUnrun) {
  VirtualClock clock;
  auto token = std::make_shared<int>(0);
  std::weak_ptr<int> watch = token;
  auto body = [](std::shared_ptr<int> held) -> Coro<int> {
    get_running_loop().call_later(1h, [held] { ++*held; });
    co_return 0;
  };
  EXPECT_EQ(run(body(std::move(token)), clock), 0);
  EXPECT_TRUE(watch.expired());  // the timer and its callback are gone, never run
  EXPECT_DOUBLE_EQ(testing::seconds(clock.now()), 0.0);
}

}  // namespace
}  // namespace looplab
