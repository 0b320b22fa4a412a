// The loop's default executor: made on the first run_in_executor(nullptr),
// its threads named asyncio_N, replaced by set_default_executor(), shut
// down (waiting, or not past a timeout) by shutdown_default_executor(), and
// without waiting by close().
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/gather.hpp"
#include "looplab/task.hpp"
#include "support/run_one_turn.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using concurrent::ThreadPoolExecutor;
using testing::current_thread_name;
using testing::threads_named;
using testing::thrown_by;
using DefaultExecutorTest = testing::Watched;

TEST_F(DefaultExecutorTest, IsMadeOnTheFirstCallForIt) {
  EventLoop loop;
  const int before = threads_named("asyncio_");
  testing::run_one_turn(loop);
  testing::run_one_turn(loop);
  // A loop alone starts no thread. (<=: another test's thread, joined,
  // may still be leaving /proc.)
  EXPECT_LE(threads_named("asyncio_"), before);
  Future<std::string> name = loop.run_in_executor(nullptr, current_thread_name);
  EXPECT_EQ(loop.run_until_complete(name), "asyncio_0");
  EXPECT_GE(threads_named("asyncio_"), 1);
}

TEST_F(DefaultExecutorTest, ItsThreadsAreNamedAsyncioNumber) {
  std::barrier both(2);
  EventLoop loop;
  auto name = [&both] {
    both.arrive_and_wait();
    return current_thread_name();
  };
  Future<std::vector<std::string>> names =
      gather(loop, loop.run_in_executor(nullptr, name), loop.run_in_executor(nullptr, name));
  std::vector<std::string> got = loop.run_until_complete(names);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"asyncio_0", "asyncio_1"}));
}

TEST_F(DefaultExecutorTest, SetDefaultExecutorRefusesNull) {
  EventLoop loop;
  EXPECT_EQ(thrown_by([&] { loop.set_default_executor(nullptr); }),
            "TypeError: executor must be ThreadPoolExecutor instance");
}

TEST_F(DefaultExecutorTest, SetDefaultExecutorIsWhatNullptrMeansFromThenOn) {
  EventLoop loop;
  auto mine = std::make_shared<ThreadPoolExecutor>(2, "mine");
  loop.set_default_executor(mine);
  Future<std::string> name = loop.run_in_executor(nullptr, current_thread_name);
  EXPECT_EQ(loop.run_until_complete(name), "mine_0");
  EXPECT_EQ(mine->thread_count(), 1U);
}

TEST_F(DefaultExecutorTest, CloseShutsTheDefaultExecutorDown) {
  EventLoop loop;
  auto mine = std::make_shared<ThreadPoolExecutor>(1);
  loop.set_default_executor(mine);
  loop.close();
  EXPECT_EQ(thrown_by([&] { (void)mine->submit([] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
}

TEST_F(DefaultExecutorTest, AfterShutdownDefaultExecutorNullptrIsRefused) {
  EventLoop loop;
  const int before = threads_named("asyncio_");
  loop.run_until_complete(loop.shutdown_default_executor());  // none was made: done at once
  EXPECT_LE(threads_named("asyncio_"), before);
  EXPECT_EQ(thrown_by([&] { (void)loop.run_in_executor(nullptr, [] { return 1; }); }),
            "RuntimeError: Executor shutdown has been called");
  ThreadPoolExecutor pool(1);  // an executor of one's own still works
  Future<int> own = loop.run_in_executor(&pool, [] { return 2; });
  EXPECT_EQ(loop.run_until_complete(own), 2);
}

struct BlockedWork {
  std::latch started{1};
  std::latch release{1};
  std::atomic<bool> finished{false};

  void operator()() {
    started.count_down();
    release.wait();
    finished = true;
  }
};

TEST_F(DefaultExecutorTest, ShutdownDefaultExecutorWaitsForTheRunningCall) {
  BlockedWork work;
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(1);
  loop.set_default_executor(pool);
  Future<void> call = loop.run_in_executor(nullptr, [&work] { work(); });
  work.started.wait();
  // Released only once the executor's shutdown has begun.
  std::thread releaser([&] {
    testing::wait_until_refused(*pool);
    work.release.count_down();
  });
  loop.run_until_complete(loop.shutdown_default_executor());
  EXPECT_TRUE(work.finished);  // it joined the worker before it returned
  releaser.join();
}

TEST_F(DefaultExecutorTest, ShutdownDefaultExecutorPastItsTimeoutWarnsAndReturns) {
  BlockedWork work;
  std::vector<std::string> reports;
  {
    EventLoop loop;
    testing::record_reports(loop, reports);
    Future<void> call = loop.run_in_executor(nullptr, [&work] { work(); });
    work.started.wait();
    ::testing::internal::CaptureStderr();
    // The timeout runs on the real clock: it fires while the call is still
    // blocked, whatever the time it takes.
    loop.run_until_complete(loop.shutdown_default_executor(0.00001));
    std::string warnings = ::testing::internal::GetCapturedStderr();
    // 3.13's words ("finishing" included), and the timeout as Python prints
    // it: f"{0.00001}" is '1e-05' (and f"{0.0001}" '0.0001'). A warning, as
    // warnings.warn() writes one; the exception handler hears nothing.
    EXPECT_NE(warnings.find("RuntimeWarning: The executor did not finishing joining its threads "
                            "within 1e-05 seconds."),
              std::string::npos)
        << warnings;
    EXPECT_TRUE(reports.empty());
    EXPECT_FALSE(work.finished);
    work.release.count_down();
  }  // the loop joins its helper thread, which joined the worker
  EXPECT_TRUE(work.finished);
}

TEST_F(DefaultExecutorTest, CloseDoesNotWaitForTheRunningCall) {
  BlockedWork work;
  {
    EventLoop loop;
    Future<void> call = loop.run_in_executor(nullptr, [&work] { work(); });
    work.started.wait();
    loop.close();  // shutdown(wait=false): would never return if it joined
    EXPECT_FALSE(work.finished);
    EXPECT_FALSE(call.done());
    EXPECT_EQ(thrown_by([&] { (void)loop.run_in_executor(nullptr, [] {}); }),
              "RuntimeError: Event loop is closed");
    work.release.count_down();
  }  // the loop held the executor: its destructor joins
  EXPECT_TRUE(work.finished);
}

TEST_F(DefaultExecutorTest, CloseAfterATimedOutShutdownDoesNotWaitForTheThreads) {
  BlockedWork work;
  {
    EventLoop loop;
    Future<void> call = loop.run_in_executor(nullptr, [&work] { work(); });
    work.started.wait();
    ::testing::internal::CaptureStderr();  // the timeout's warning
    loop.run_until_complete(loop.shutdown_default_executor(0.00001));
    (void)::testing::internal::GetCapturedStderr();
    // asyncio's close() shuts the executor down without waiting: the helper
    // thread still waits for the call, and close() would never return if it
    // joined it.
    loop.close();
    EXPECT_FALSE(work.finished);
    work.release.count_down();
  }  // the loop's destructor joins the helper, which joined the worker
  EXPECT_TRUE(work.finished);
}

}  // namespace
}  // namespace looplab
