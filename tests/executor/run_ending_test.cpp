// run(main) ends as asyncio.Runner.close(): the leftover tasks are
// cancelled and awaited, then the default executor is shut down and joined,
// so work handed to it and never awaited is finished when run() returns.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <memory>

#include "executor/executor_support.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using concurrent::ThreadPoolExecutor;
using RunEndingTest = testing::Watched;

struct FireAndForget {
  std::latch release{1};
  std::atomic<bool> finished{false};
  // Shared with the test, so that destroying the loop (which would join it)
  // does not do what only run()'s shutdown_default_executor() should.
  std::shared_ptr<ThreadPoolExecutor> pool = std::make_shared<ThreadPoolExecutor>(1);
};

void work_released_late(FireAndForget* state) {
  state->release.wait();
  state->finished = true;
}

// A leftover task: run() cancels it after main returns, and only then is
// the work released, so the work can only be finished if run() waits for it.
Coro<void> release_when_cancelled(FireAndForget* state) {
  try {
    co_await sleep(24h);
  } catch (const CancelledError&) {
    state->release.count_down();
    throw;
  }
}

Coro<int> main_fires_and_forgets(FireAndForget* state) {
  EventLoop& loop = get_running_loop();
  loop.set_default_executor(state->pool);
  (void)loop.run_in_executor(nullptr, work_released_late, state);  // never awaited
  (void)create_task(loop, release_when_cancelled(state));
  co_await sleep(0s);
  co_return 7;
}

TEST_F(RunEndingTest, WorkNeverAwaitedIsFinishedWhenRunReturns) {
  FireAndForget state;
  EXPECT_EQ(run(main_fires_and_forgets(&state)), 7);
  EXPECT_TRUE(state.finished);
  EXPECT_EQ(testing::thrown_by([&] { (void)state.pool->submit([] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
}

Coro<int> main_fires_and_fails(FireAndForget* state) {
  EventLoop& loop = get_running_loop();
  loop.set_default_executor(state->pool);
  (void)loop.run_in_executor(nullptr, work_released_late, state);
  (void)create_task(loop, release_when_cancelled(state));
  co_await sleep(0s);
  throw ValueError("main failed");
}

TEST_F(RunEndingTest, AMainThatFailsStillWaitsForTheExecutor) {
  FireAndForget state;
  EXPECT_EQ(testing::thrown_by([&] { run(main_fires_and_fails(&state)); }),
            "ValueError: main failed");
  EXPECT_TRUE(state.finished);
  EXPECT_EQ(testing::thrown_by([&] { (void)state.pool->submit([] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
}

}  // namespace
}  // namespace looplab
