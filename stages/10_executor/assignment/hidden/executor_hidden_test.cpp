// An example of an instructor's hidden tests for assignment 10 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// What the public tests leave out: a work item cancelled while it waits in
// the queue behind a busy thread must never run, whether its concurrent
// future is cancelled directly or through the loop's future that
// run_in_executor() returned, whose cancellation reaches the work one turn
// later, still in time.
#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "looplab/event_loop.hpp"
#include "looplab/thread_pool_executor.hpp"

namespace looplab {
namespace {

TEST(HiddenExecutor, CancelledQueuedItemNeverRuns) {
  concurrent::ThreadPoolExecutor executor(1, "hidden");
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};

  // The one thread is busy until released; what follows waits in the queue.
  concurrent::Future<void> busy = executor.submit([&started, released] {
    started.set_value();
    released.wait();
  });
  started.get_future().wait();
  concurrent::Future<void> direct = executor.submit([&ran] { ++ran; });
  EXPECT_TRUE(direct.cancel());

  // Through the loop: cancelling the loop's future cancels the queued work
  // in the turn its done callback runs.
  EventLoop loop;
  Future<void> through_loop = loop.run_in_executor(&executor, [&ran] { ran += 10; });
  EXPECT_TRUE(through_loop.cancel());
  loop.call_soon([&loop] { loop.stop(); });
  loop.run_forever();

  release.set_value();
  busy.result();
  executor.shutdown(/*wait=*/true);
  EXPECT_EQ(ran.load(), 0);
  EXPECT_TRUE(direct.cancelled());
  EXPECT_TRUE(through_loop.cancelled());
  EXPECT_EQ(executor.thread_count(), 1u);
  loop.close();
}

}  // namespace
}  // namespace looplab
