// A first look at stage 10's executor: one call through each door.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"

namespace looplab {
namespace {

int twice(int value) { return 2 * value; }

Coro<int> through_to_thread() {
  int got = co_await to_thread(twice, 21);
  co_return got;
}

TEST(ExecutorSmoke, SubmitReturnsTheResult) {
  concurrent::ThreadPoolExecutor executor(2, "smoke");
  concurrent::Future<int> future = executor.submit(twice, 4);
  EXPECT_EQ(future.result(), 8);
  EXPECT_EQ(executor.thread_count(), 1u);
}

TEST(ExecutorSmoke, RunInExecutorAndToThread) {
  EXPECT_EQ(run(through_to_thread()), 42);
  EventLoop loop;
  Future<std::string> future = loop.run_in_executor(nullptr, [] { return std::string("done"); });
  EXPECT_EQ(loop.run_until_complete(future), "done");
  loop.close();
}

}  // namespace
}  // namespace looplab
