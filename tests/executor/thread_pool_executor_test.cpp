// concurrent::ThreadPoolExecutor: concurrent.futures.ThreadPoolExecutor's
// size, its futures, its FIFO queue, threads started lazily and kept while
// idle, their names, and the three ways to end it (shutdown with and
// without waiting, the destructor, even on one of its own workers).
#include "looplab/thread_pool_executor.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <future>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "executor/executor_support.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using concurrent::ThreadPoolExecutor;
using testing::current_thread_name;
using testing::thrown_by;
using testing::wait_until_refused;
using PoolTest = testing::Watched;

TEST_F(PoolTest, TheDefaultSizeIsMin32AndTheUsableCpusPlusFour) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
  const std::size_t usable = static_cast<std::size_t>(CPU_COUNT(&cpus));
  ThreadPoolExecutor pool;
  EXPECT_EQ(pool.max_workers(), std::min<std::size_t>(32, usable + 4));
  ThreadPoolExecutor three(3);
  EXPECT_EQ(three.max_workers(), 3U);
  EXPECT_EQ(pool.thread_count(), 0U);
}

TEST_F(PoolTest, ZeroMaxWorkersIsAValueError) {
  EXPECT_EQ(thrown_by([] { ThreadPoolExecutor pool(0); }),
            "ValueError: max_workers must be greater than 0");
  // Refused before it took a number: the next executor gets the one it would have had.
  auto number = [](const std::string& prefix) {
    return std::stoul(prefix.substr(prefix.rfind('-') + 1));
  };
  unsigned long before = number(ThreadPoolExecutor().thread_name_prefix());
  EXPECT_THROW(ThreadPoolExecutor(0), ValueError);
  EXPECT_EQ(number(ThreadPoolExecutor().thread_name_prefix()), before + 1);
}

TEST_F(PoolTest, SubmitReturnsAFutureOfTheCallsValue) {
  ThreadPoolExecutor pool(2);
  auto future = pool.submit([](const std::string& text, int n) { return text + std::to_string(n); },
                            std::string("item "), 7);
  static_assert(std::is_same_v<decltype(future), concurrent::Future<std::string>>);
  EXPECT_EQ(future.result(), "item 7");
}

TEST_F(PoolTest, AnExceptionThrownByTheCallIsTheFuturesException) {
  ThreadPoolExecutor pool(1);
  auto future = pool.submit([]() -> int { throw ValueError("from the worker"); });
  EXPECT_EQ(thrown_by([&] { future.result(); }), "ValueError: from the worker");
  EXPECT_EQ(describe_exception(future.exception()), "ValueError: from the worker");
  // The worker survives it.
  EXPECT_EQ(pool.submit([] { return 2; }).result(), 2);
  EXPECT_EQ(pool.thread_count(), 1U);
}

TEST_F(PoolTest, AVoidCallGivesAFutureOfVoid) {
  ThreadPoolExecutor pool(1);
  std::atomic<bool> ran{false};
  auto future = pool.submit([&ran] { ran = true; });
  static_assert(std::is_same_v<decltype(future), concurrent::Future<void>>);
  future.result();
  EXPECT_TRUE(ran);
  EXPECT_TRUE(future.done());
}

TEST_F(PoolTest, AMoveOnlyFunctionAndArgumentsAreMovedInAndCalledOnce) {
  ThreadPoolExecutor pool(1);
  auto owner = std::make_unique<int>(40);
  auto add = [owner = std::move(owner)](std::unique_ptr<int> more) { return *owner + *more; };
  EXPECT_EQ(pool.submit(std::move(add), std::make_unique<int>(2)).result(), 42);
}

TEST_F(PoolTest, AFutureCancelledWhileQueuedNeverRuns) {
  std::latch started(1);
  std::latch release(1);
  std::atomic<int> queued_ran{0};
  ThreadPoolExecutor pool(1);
  auto running = pool.submit([&] {
    started.count_down();
    release.wait();
  });
  auto queued = pool.submit([&queued_ran] { ++queued_ran; });
  started.wait();
  EXPECT_FALSE(running.cancel());  // a running call cannot be cancelled
  EXPECT_TRUE(queued.cancel());
  release.count_down();
  pool.submit([] {}).result();  // FIFO, one worker: the cancelled item came first
  EXPECT_EQ(queued_ran, 0);
  EXPECT_TRUE(queued.cancelled());
  EXPECT_TRUE(running.done());
}

TEST_F(PoolTest, OneWorkerRunsTheItemsInTheOrderTheyWereSubmitted) {
  std::latch release(1);
  ThreadPoolExecutor pool(1);
  std::vector<int> order;  // the worker's only, until the last future is done
  auto blocked = pool.submit([&release] { release.wait(); });
  std::vector<concurrent::Future<void>> futures;
  futures.reserve(10);
  for (int i = 0; i < 10; ++i) futures.push_back(pool.submit([&order, i] { order.push_back(i); }));
  release.count_down();
  futures.back().result();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(pool.thread_count(), 1U);
}

TEST_F(PoolTest, ThreadsStartLazilyOnePerBusySubmitUpToMaxWorkers) {
  std::latch release(1);
  ThreadPoolExecutor pool(2);
  EXPECT_EQ(pool.thread_count(), 0U);  // none before the first submit
  auto blocked = [&release](int value) {
    release.wait();
    return value;
  };
  std::vector<concurrent::Future<int>> futures;
  futures.push_back(pool.submit(blocked, 1));
  EXPECT_EQ(pool.thread_count(), 1U);  // submit started it, at once
  futures.push_back(pool.submit(blocked, 2));
  EXPECT_EQ(pool.thread_count(), 2U);  // the first is busy
  futures.push_back(pool.submit(blocked, 3));
  EXPECT_EQ(pool.thread_count(), 2U);  // max_workers: the third waits in the queue
  release.count_down();
  int sum = 0;
  for (auto& future : futures) sum += future.result();
  EXPECT_EQ(sum, 6);
  EXPECT_EQ(pool.thread_count(), 2U);
}

TEST_F(PoolTest, SequentialRoundTripsKeepOneThread) {
  // A worker is idle from the moment its call returns, before it completes
  // the future: the next submit, made after result() returned, finds it.
  ThreadPoolExecutor pool(8);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(pool.submit([i] { return i; }).result(), i);
  EXPECT_EQ(pool.thread_count(), 1U);
}

TEST_F(PoolTest, ADoneCallbackOnAWorkerThatWaitsForWorkItSubmittedGetsAThread) {
  // The worker completing `first` runs its done callback, and counts itself
  // idle meanwhile; but it cannot take the work that callback submits, so
  // submit() starts a second thread, as CPython's does (one would wait for
  // itself).
  std::latch release(1);
  ThreadPoolExecutor pool(4);
  std::promise<int> inner_result;
  auto first = pool.submit([&release] {
    release.wait();
    return 1;
  });
  first.add_done_callback([&pool, &inner_result](const concurrent::Future<int>& done) {
    int value = done.result();
    auto inner = pool.submit([value] { return value + 41; });
    try {
      inner_result.set_value(inner.result(std::chrono::seconds(30)));
    } catch (...) {
      inner_result.set_exception(std::current_exception());
    }
  });
  release.count_down();  // the callback runs on the worker, not here
  EXPECT_EQ(inner_result.get_future().get(), 42);
  EXPECT_EQ(pool.thread_count(), 2U);
}

TEST_F(PoolTest, AQueuedFutureCompletedByHandIsReportedAndTheWorkerGoesOn) {
  // Misuse: set_result() on the future of an item still in the queue. The
  // worker says so on standard error, as thread.py logs it, never runs the
  // call, and takes the next item (CPython's worker thread ends there).
  std::latch release(1);
  std::atomic<int> ran{0};
  ThreadPoolExecutor pool(1);
  auto blocked = pool.submit([&release] { release.wait(); });
  auto queued = pool.submit([&ran] { return ++ran; });
  queued.set_result(7);
  ::testing::internal::CaptureStderr();
  release.count_down();
  EXPECT_EQ(pool.submit([] { return 8; }).result(), 8);  // the same worker, FIFO
  std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(logged.find("in unexpected state: FINISHED"), std::string::npos) << logged;
  EXPECT_NE(logged.find("Exception in worker\nRuntimeError: Future in unexpected state"),
            std::string::npos)
      << logged;
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(queued.result(), 7);
  EXPECT_EQ(pool.thread_count(), 1U);
}

TEST_F(PoolTest, ThreadsAreNamedPrefixUnderscoreNumber) {
  std::barrier both(2);  // each call waits for the other: two threads or none
  ThreadPoolExecutor pool(4, "worker");
  auto name = [&both] {
    both.arrive_and_wait();
    return current_thread_name();
  };
  auto first = pool.submit(name);
  auto second = pool.submit(name);
  std::vector<std::string> names{first.result(), second.result()};
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"worker_0", "worker_1"}));
}

TEST_F(PoolTest, TheDefaultPrefixIsThreadPoolExecutor) {
  // "ThreadPoolExecutor-<k>_0" as CPython names it; Linux keeps 15 characters.
  ThreadPoolExecutor pool(1);
  std::string name = pool.submit(current_thread_name).result();
  EXPECT_EQ(name.rfind("ThreadPool", 0), 0U) << name;
  EXPECT_NE(name, current_thread_name());
}

TEST_F(PoolTest, ShutdownWithWaitJoinsTheRunningAndTheQueuedWork) {
  std::latch started(1);
  std::latch release(1);
  std::atomic<bool> first_finished{false};
  std::atomic<bool> queued_finished{false};
  ThreadPoolExecutor pool(1);
  auto first = pool.submit([&] {
    started.count_down();
    release.wait();
    first_finished = true;
  });
  auto queued = pool.submit([&] { queued_finished = true; });
  started.wait();
  std::thread releaser([&] {
    wait_until_refused(pool);  // shutdown() has begun
    release.count_down();
  });
  pool.shutdown(true);
  EXPECT_TRUE(first_finished);
  EXPECT_TRUE(queued_finished);  // cancel_futures=false: the queue is run, not dropped
  EXPECT_TRUE(first.done());
  EXPECT_TRUE(queued.done());
  releaser.join();
}

// thread.py's shutdown(wait=True) joins every thread, whoever calls it: two
// callers both wait. (A second caller that did not wait would return while
// the item still runs; the item gives it every chance to.)
TEST_F(PoolTest, EveryShutdownWithWaitWaitsForTheThreads) {
  std::latch started(1);
  std::latch both_called(1);
  std::atomic<int> returned{0};
  int returned_while_running = -1;
  ThreadPoolExecutor pool(1);
  auto running = pool.submit([&] {
    started.count_down();
    both_called.wait();
    for (int i = 0; i < 100'000 && returned == 0; ++i) std::this_thread::yield();
    returned_while_running = returned;
  });
  started.wait();
  std::thread first([&] {
    pool.shutdown(true);
    ++returned;
  });
  wait_until_refused(pool);  // the first shutdown() has begun
  std::thread second([&] {
    both_called.count_down();
    pool.shutdown(true);
    ++returned;
  });
  first.join();
  second.join();
  EXPECT_EQ(returned_while_running, 0);
  EXPECT_TRUE(running.done());
}

TEST_F(PoolTest, AWorkItemCannotShutDownItsOwnPoolWithWait) {
  ThreadPoolExecutor pool(1);
  auto waiting = pool.submit([&pool] { pool.shutdown(true); });
  EXPECT_EQ(thrown_by([&] { waiting.result(); }), "RuntimeError: cannot join current thread");
  // The shutdown itself took place; without wait, a work item may ask for it.
  EXPECT_EQ(thrown_by([&] { pool.submit([] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
  ThreadPoolExecutor other(1);
  auto not_waiting = other.submit([&other] { other.shutdown(false); });
  EXPECT_NO_THROW(not_waiting.result());
  pool.shutdown(true);  // its owner joins it
  EXPECT_EQ(pool.thread_count(), 1U);
}

TEST_F(PoolTest, ShutdownWithoutWaitReturnsWhileTheWorkStillRuns) {
  std::latch started(1);
  std::latch release(1);
  ThreadPoolExecutor pool(1);
  auto running = pool.submit([&] {
    started.count_down();
    release.wait();
    return 5;
  });
  started.wait();
  pool.shutdown(false);  // would never return if it joined the blocked worker
  EXPECT_FALSE(running.done());
  release.count_down();
  EXPECT_EQ(running.result(), 5);
}

TEST_F(PoolTest, ShutdownWithCancelFuturesCancelsTheQueuedItemsWhichNeverRun) {
  std::latch started(1);
  std::latch release(1);
  std::atomic<int> queued_ran{0};
  ThreadPoolExecutor pool(1);
  auto running = pool.submit([&] {
    started.count_down();
    release.wait();
  });
  std::vector<concurrent::Future<void>> queued;
  queued.reserve(3);
  for (int i = 0; i < 3; ++i) queued.push_back(pool.submit([&queued_ran] { ++queued_ran; }));
  started.wait();
  pool.shutdown(false, true);
  for (auto& future : queued) EXPECT_TRUE(future.cancelled());
  EXPECT_TRUE(running.running());  // a running call cannot be cancelled
  release.count_down();
  running.result();
  pool.shutdown(true);  // joins: had a cancelled item run, it has run by now
  EXPECT_EQ(queued_ran, 0);
}

TEST_F(PoolTest, SubmitAfterShutdownIsARuntimeError) {
  ThreadPoolExecutor pool(1);
  pool.submit([] {}).result();
  pool.shutdown();
  EXPECT_EQ(thrown_by([&] { (void)pool.submit([] { return 1; }); }),
            "RuntimeError: cannot schedule new futures after shutdown");
  ThreadPoolExecutor unused(1);  // never started a thread: the same
  unused.shutdown(false);
  EXPECT_EQ(thrown_by([&] { (void)unused.submit([] {}); }),
            "RuntimeError: cannot schedule new futures after shutdown");
  EXPECT_EQ(unused.thread_count(), 0U);
}

TEST_F(PoolTest, TheDestructorWaitsForTheRunningAndTheQueuedWork) {
  std::latch started(1);
  std::latch release(1);
  std::atomic<int> ran{0};
  auto pool = std::make_unique<ThreadPoolExecutor>(1);
  (void)pool->submit([&] {
    started.count_down();
    release.wait();
    ++ran;
  });
  for (int i = 0; i < 5; ++i) (void)pool->submit([&ran] { ++ran; });
  started.wait();
  std::thread releaser([&, raw = pool.get()] {
    wait_until_refused(*raw);
    release.count_down();
  });
  pool.reset();  // shutdown(wait=true)
  EXPECT_EQ(ran, 6);
  releaser.join();
}

// Sets the promise once the pool beside it has been destroyed (members are
// destroyed in reverse order: the pool first).
struct DestroyedSignal {
  std::promise<std::thread::id>* destroyed_on;
  ~DestroyedSignal() { destroyed_on->set_value(std::this_thread::get_id()); }
};
struct OwnedPool {
  explicit OwnedPool(std::promise<std::thread::id>* destroyed_on) : signal{destroyed_on} {}
  DestroyedSignal signal;
  ThreadPoolExecutor pool{1};
};

TEST_F(PoolTest, TheDestructorRunOnItsOwnWorkerDetachesInsteadOfJoiningItself) {
  std::latch release(1);
  std::promise<std::thread::id> destroyed_on;
  std::future<std::thread::id> destroyed = destroyed_on.get_future();
  auto owner = std::make_shared<OwnedPool>(&destroyed_on);
  // The work item holds the last reference once the test drops its own.
  auto future = owner->pool.submit([owner, &release] {
    release.wait();
    return std::this_thread::get_id();
  });
  owner.reset();
  release.count_down();
  std::thread::id worker = future.result();
  EXPECT_EQ(destroyed.get(), worker);  // it returned, on the worker: no self-join, no deadlock
  EXPECT_NE(worker, std::this_thread::get_id());
}

}  // namespace
}  // namespace looplab
