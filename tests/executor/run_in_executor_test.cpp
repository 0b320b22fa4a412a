// loop.run_in_executor(executor, fn, args...): submitted at once, its
// outcome carried back to the loop's thread in a later turn, and a
// cancellation that stops a queued call but never a running one.
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <latch>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "support/run_one_turn.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using concurrent::ThreadPoolExecutor;
using testing::run_one_turn;
using testing::thrown_by;
using RunInExecutorTest = testing::Watched;

TEST_F(RunInExecutorTest, SubmitsAtOnceBeforeTheLoopRuns) {
  std::latch ran(1);
  EventLoop loop;
  ThreadPoolExecutor pool(2);
  Future<int> future = loop.run_in_executor(&pool, [&ran] {
    ran.count_down();
    return 1;
  });
  EXPECT_EQ(pool.thread_count(), 1U);
  ran.wait();                   // the loop has not run: only submit can have started it
  EXPECT_FALSE(future.done());  // but only the loop completes its future
  EXPECT_EQ(loop.run_until_complete(future), 1);
}

TEST_F(RunInExecutorTest, TheFutureGetsTheCallsValue) {
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  Future<std::string> future = loop.run_in_executor(
      &pool, [](const std::string& text, int n) { return text + std::to_string(n); },
      std::string("n="), 42);
  EXPECT_EQ(loop.run_until_complete(future), "n=42");
}

struct WorkerError : ValueError {
  explicit WorkerError(std::string detail)
      : ValueError("from the worker"), detail(std::move(detail)) {}
  std::string detail;
};

Coro<std::string> catch_worker_error(EventLoop* loop, ThreadPoolExecutor* pool) {
  Future<int> future =
      loop->run_in_executor(pool, []() -> int { throw WorkerError("a payload that survives"); });
  try {
    co_await future;
  } catch (const WorkerError& error) {
    co_return testing::concat(std::string(error.what()), ": ", error.detail);
  }
  co_return "no exception";
}

TEST_F(RunInExecutorTest, TheFutureGetsTheCallsExceptionItself) {
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  EXPECT_EQ(loop.run_until_complete(catch_worker_error(&loop, &pool)),
            "from the worker: a payload that survives");
  Future<int> again = loop.run_in_executor(&pool, []() -> int { throw ValueError("again"); });
  EXPECT_EQ(thrown_by([&] { loop.run_until_complete(again); }), "ValueError: again");
}

TEST_F(RunInExecutorTest, AVoidCallGivesAFutureOfVoid) {
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  std::atomic<int> calls{0};
  auto future = loop.run_in_executor(&pool, [&calls] { ++calls; });
  static_assert(std::is_same_v<decltype(future), Future<void>>);
  loop.run_until_complete(future);
  EXPECT_EQ(calls, 1);
}

TEST_F(RunInExecutorTest, TheOutcomeHopsBackToTheLoopsThreadInALaterTurn) {
  std::latch release(1);
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  Future<std::thread::id> future = loop.run_in_executor(&pool, [&release] {
    release.wait();
    return std::this_thread::get_id();
  });
  std::thread::id callback_ran_on;
  future.add_done_callback([&callback_ran_on](Future<std::thread::id>&) {
    callback_ran_on = std::this_thread::get_id();
  });
  release.count_down();
  // Wait (without the loop) until the worker has posted the outcome: the
  // worker never completes the loop's future itself.
  while (!loop.threadsafe_queue().maybe_nonempty()) std::this_thread::yield();
  EXPECT_FALSE(future.done());
  std::thread::id worker = loop.run_until_complete(future);
  EXPECT_NE(worker, std::this_thread::get_id());
  EXPECT_EQ(callback_ran_on, std::this_thread::get_id());
}

struct CancelGates {
  std::latch started{1};
  std::latch release{1};
  std::atomic<bool> finished{false};
};

int blocked_until_released(CancelGates* gates) {
  gates->started.count_down();
  gates->release.wait();
  gates->finished = true;
  return 1;
}

Coro<int> await_blocked_call(EventLoop* loop, ThreadPoolExecutor* pool, CancelGates* gates) {
  Future<int> future = loop->run_in_executor(pool, blocked_until_released, gates);
  co_return co_await future;
}

Coro<std::string> cancel_while_it_runs(EventLoop* loop, ThreadPoolExecutor* pool,
                                       CancelGates* gates) {
  Task<int> task = create_task(*loop, await_blocked_call(loop, pool, gates));
  co_await sleep(0s);  // the task starts and submits
  // A task already done could not submit (an executor that refuses): its
  // call will never start, and waiting for it would hang the test.
  if (task.done()) co_return "the call was not submitted";
  gates->started.wait();  // the call is running
  task.cancel();
  std::string outcome = "task not cancelled";
  try {
    co_await task;
  } catch (const CancelledError&) {
    outcome = "task cancelled";
  }
  EXPECT_FALSE(gates->finished);  // the task is done; the call still blocked
  gates->release.count_down();
  // One worker: this runs after the blocked call has returned.
  auto nothing = [] {};
  Future<void> after = loop->run_in_executor(pool, nothing);
  co_await after;
  co_return testing::concat(outcome, gates->finished ? ", call completed" : ", call interrupted");
}

TEST_F(RunInExecutorTest, CancellingTheAwaitingTaskDoesNotInterruptTheCall) {
  CancelGates gates;
  EventLoop loop;
  std::vector<std::string> reports;
  testing::record_reports(loop, reports);
  ThreadPoolExecutor pool(1);
  EXPECT_EQ(loop.run_until_complete(cancel_while_it_runs(&loop, &pool, &gates)),
            "task cancelled, call completed");
  EXPECT_TRUE(reports.empty()) << reports.front();  // its result was dropped quietly
}

TEST_F(RunInExecutorTest, AQueuedCallWhoseFutureIsCancelledNeverRuns) {
  std::latch release(1);
  std::atomic<int> queued_ran{0};
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  Future<void> running = loop.run_in_executor(&pool, [&release] { release.wait(); });
  Future<void> queued = loop.run_in_executor(&pool, [&queued_ran] { ++queued_ran; });
  EXPECT_TRUE(queued.cancel());
  run_one_turn(loop);  // its done callback cancels the executor's future
  run_one_turn(loop);
  release.count_down();
  loop.run_until_complete(running);
  auto nothing = [] {};
  Future<void> later = loop.run_in_executor(&pool, nothing);
  loop.run_until_complete(later);  // FIFO: the queued call would have run before this one
  EXPECT_EQ(queued_ran, 0);
  EXPECT_TRUE(queued.cancelled());
}

TEST_F(RunInExecutorTest, ManyCallsFromOneLoopRunAtTheSameTime) {
  std::barrier all(3);  // each call waits for the other two
  EventLoop loop;
  ThreadPoolExecutor pool(3);
  auto meet = [&all](int value) {
    all.arrive_and_wait();
    return value;
  };
  Future<std::vector<int>> gathered =
      gather(loop, loop.run_in_executor(&pool, meet, 1), loop.run_in_executor(&pool, meet, 2),
             loop.run_in_executor(&pool, meet, 3));
  EXPECT_EQ(loop.run_until_complete(gathered), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(pool.thread_count(), 3U);
}

TEST_F(RunInExecutorTest, AClosedLoopRefusesAndSubmitsNothing) {
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  loop.close();
  EXPECT_EQ(thrown_by([&] { (void)loop.run_in_executor(&pool, [] { return 1; }); }),
            "RuntimeError: Event loop is closed");
  EXPECT_EQ(thrown_by([&] { (void)loop.run_in_executor(nullptr, [] { return 1; }); }),
            "RuntimeError: Event loop is closed");
  EXPECT_EQ(pool.thread_count(), 0U);
}

TEST_F(RunInExecutorTest, AnExecutorShutDownRefusesAtTheCall) {
  EventLoop loop;
  ThreadPoolExecutor pool(1);
  pool.shutdown();
  EXPECT_EQ(thrown_by([&] { (void)loop.run_in_executor(&pool, [] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
}

}  // namespace
}  // namespace looplab
