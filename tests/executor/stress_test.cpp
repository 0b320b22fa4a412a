// The stress tests of chapter 10, sized by LOOPLAB_STRESS_CALLBACKS: many
// threads submit to one pool, and a loop hands it work while other threads
// do too; every call runs exactly once (or, cancelled while queued, never)
// and every outcome arrives once, where it belongs. Under TSan this is also
// the proof that the queue, the idle count and the hop back are race-free.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/gather.hpp"
#include "looplab/task.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using concurrent::ThreadPoolExecutor;
using ExecutorStressTest = testing::Watched;

/// Counts its run, and fails for every seventh index: exceptions cross too.
int counted_call(std::atomic<int>* runs, int index) {
  runs->fetch_add(1, std::memory_order_relaxed);
  if (index % 7 == 0) throw ValueError(std::to_string(index));
  return index;
}

TEST_F(ExecutorStressTest, ManyThreadsSubmitAndEveryCallRunsOnceWithItsOwnOutcome) {
  constexpr int kThreads = 4;
  const int per_thread = testing::stress_items() / kThreads;
  std::vector<std::atomic<int>> runs(static_cast<std::size_t>(kThreads * per_thread));
  // Every future is kept until the pool is joined: no exception is freed
  // on a worker while a submitter reads it.
  std::vector<std::vector<concurrent::Future<int>>> futures(kThreads);
  std::atomic<int> wrong{0};
  ThreadPoolExecutor pool(4);
  std::vector<std::thread> submitters;
  submitters.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    submitters.emplace_back([&, t] {
      auto& mine = futures[static_cast<std::size_t>(t)];
      mine.reserve(static_cast<std::size_t>(per_thread));
      for (int i = 0; i < per_thread; ++i) {
        int index = t * per_thread + i;
        mine.push_back(pool.submit(counted_call, &runs[static_cast<std::size_t>(index)], index));
        // Now and then wait for one: workers go idle and are woken again.
        if (i % 64 == 63) (void)mine.back().exception();
      }
      for (int i = 0; i < per_thread; ++i) {
        int index = t * per_thread + i;
        std::exception_ptr error = mine[static_cast<std::size_t>(i)].exception();
        if (index % 7 == 0) {
          if (describe_exception(error) != "ValueError: " + std::to_string(index)) ++wrong;
        } else if (error || mine[static_cast<std::size_t>(i)].result() != index) {
          ++wrong;
        }
      }
    });
  }
  for (std::thread& submitter : submitters) submitter.join();
  pool.shutdown(true);
  EXPECT_EQ(wrong, 0);
  int not_once = 0;
  for (const std::atomic<int>& count : runs) not_once += count.load() != 1 ? 1 : 0;
  EXPECT_EQ(not_once, 0);
  EXPECT_LE(pool.thread_count(), 4U);
}

struct LoopStress {
  EventLoop* loop;
  ThreadPoolExecutor* pool;
  std::vector<std::atomic<int>>* runs;
  int items;
  int values = 0;
  int errors = 0;
  int cancelled = 0;
  int wrong = 0;
};

// Batches of 64 calls in flight; every 11th future is cancelled as soon as
// it is made (its call may run or not: never twice), every 7th call fails.
Coro<void> hand_the_pool_work(LoopStress* s) {
  for (int first = 0; first < s->items; first += 64) {
    const int last = std::min(first + 64, s->items);
    std::vector<Future<int>> batch;
    for (int i = first; i < last; ++i) {
      std::atomic<int>* runs = &(*s->runs)[static_cast<std::size_t>(i)];
      batch.push_back(s->loop->run_in_executor(s->pool, counted_call, runs, i));
      if (i % 11 == 0) batch.back().cancel();
    }
    for (int i = first; i < last; ++i) {
      Future<int>& future = batch[static_cast<std::size_t>(i - first)];
      try {
        int value = co_await future;
        ++s->values;
        if (value != i || i % 11 == 0 || i % 7 == 0) ++s->wrong;
      } catch (const ValueError&) {
        ++s->errors;
        if (i % 7 != 0 || i % 11 == 0) ++s->wrong;
      } catch (const CancelledError&) {
        ++s->cancelled;
        if (i % 11 != 0) ++s->wrong;
      }
    }
  }
}

TEST_F(ExecutorStressTest, ALoopAndOtherThreadsShareAPoolAndEveryOutcomeArrivesOnce) {
  const int items = testing::stress_items() / 2;
  const int direct_items = testing::stress_items() / 8;
  std::vector<std::atomic<int>> runs(static_cast<std::size_t>(items));
  std::vector<std::atomic<int>> direct_runs(static_cast<std::size_t>(2 * direct_items));
  std::vector<std::vector<concurrent::Future<int>>> direct(2);
  EventLoop loop;
  std::vector<std::string> reports;
  testing::record_reports(loop, reports);
  ThreadPoolExecutor pool(4);
  LoopStress stress{&loop, &pool, &runs, items};
  std::vector<std::thread> others;
  others.reserve(2);
  for (int t = 0; t < 2; ++t) {
    others.emplace_back([&, t] {
      for (int i = 0; i < direct_items; ++i) {
        int index = t * direct_items + i;
        direct[static_cast<std::size_t>(t)].push_back(pool.submit(
            counted_call, &direct_runs[static_cast<std::size_t>(index)], index * 7 + 1));
      }
    });
  }
  loop.run_until_complete(hand_the_pool_work(&stress));
  for (std::thread& other : others) other.join();
  pool.shutdown(true);  // every call that will ever run has run

  int expected_cancelled = 0;
  int expected_errors = 0;
  int not_once = 0;
  for (int i = 0; i < items; ++i) {
    int count = runs[static_cast<std::size_t>(i)].load();
    if (i % 11 == 0) {
      ++expected_cancelled;
      if (count > 1) ++not_once;  // cancelled while queued: 0; already running: 1
    } else {
      if (i % 7 == 0) ++expected_errors;
      if (count != 1) ++not_once;
    }
  }
  EXPECT_EQ(stress.wrong, 0);
  EXPECT_EQ(not_once, 0);
  EXPECT_EQ(stress.cancelled, expected_cancelled);
  EXPECT_EQ(stress.errors, expected_errors);
  EXPECT_EQ(stress.values, items - expected_cancelled - expected_errors);
  int direct_wrong = 0;
  for (int t = 0; t < 2; ++t) {
    for (int i = 0; i < direct_items; ++i) {
      int index = t * direct_items + i;
      if (direct[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)].result() !=
          index * 7 + 1)
        ++direct_wrong;
      if (direct_runs[static_cast<std::size_t>(index)].load() != 1) ++direct_wrong;
    }
  }
  EXPECT_EQ(direct_wrong, 0);
  EXPECT_TRUE(reports.empty()) << reports.front();
}

int doubled(int value) { return 2 * value; }

Coro<long long> many_tasks_to_thread(int items) {
  long long total = 0;
  for (int first = 0; first < items; first += 32) {
    std::vector<Coro<int>> calls;
    for (int i = first; i < std::min(first + 32, items); ++i)
      calls.push_back(to_thread(doubled, i));
    Future<std::vector<int>> all = gather(get_running_loop(), std::move(calls));
    std::vector<int> values = co_await all;
    for (int value : values) total += value;
  }
  co_return total;
}

TEST_F(ExecutorStressTest, ManyTasksToThreadAtOnceEachGetTheirOwnResult) {
  const int items = testing::stress_items() / 4;
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(4);
  loop.set_default_executor(pool);
  long long expected = static_cast<long long>(items) * (items - 1);  // 2 * (0 + ... + items-1)
  EXPECT_EQ(loop.run_until_complete(many_tasks_to_thread(items)), expected);
  EXPECT_LE(pool->thread_count(), 4U);
}

}  // namespace
}  // namespace looplab
