// to_thread(fn, args...): a coroutine, so nothing is submitted before it is
// awaited; it runs fn in a copy of the awaiting task's Context on the
// default executor, and an idle worker is reused rather than a new one started.
#include "looplab/to_thread.hpp"

#include <gtest/gtest.h>

#include <barrier>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/context.hpp"
#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using concurrent::ThreadPoolExecutor;
using testing::concat;
using ToThreadTest = testing::Watched;

int forty_two() { return 42; }

Coro<std::string> create_then_await(ThreadPoolExecutor* pool) {
  Coro<int> never_awaited = to_thread(forty_two);
  Coro<int> call = to_thread(forty_two);
  co_await sleep(0s);
  std::string before = std::to_string(pool->thread_count());
  int value = co_await std::move(call);
  co_return concat(before, " threads before the await, ", std::to_string(pool->thread_count()),
                   " after: ", std::to_string(value));
}

TEST_F(ToThreadTest, NothingIsSubmittedUntilItIsAwaited) {
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(4);
  loop.set_default_executor(pool);
  EXPECT_EQ(loop.run_until_complete(create_then_await(pool.get())),
            "0 threads before the await, 1 after: 42");
  pool->shutdown();  // joins: the coroutine never awaited submitted nothing
  EXPECT_EQ(pool->thread_count(), 1U);
}

Coro<std::string> made_a_task(ThreadPoolExecutor* pool) {
  Task<int> task = create_task(get_running_loop(), to_thread(forty_two));
  std::string at_creation = std::to_string(pool->thread_count());
  co_await sleep(0s);  // the task's first step runs to_thread's body: it submits
  std::string after_a_turn = std::to_string(pool->thread_count());
  int value = co_await task;
  co_return concat(at_creation, " then ", after_a_turn, ": ", std::to_string(value));
}

TEST_F(ToThreadTest, MadeATaskItSubmitsWhenTheTaskStarts) {
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(4);
  loop.set_default_executor(pool);
  EXPECT_EQ(loop.run_until_complete(made_a_task(pool.get())), "0 then 1: 42");
}

Coro<std::string> name_of_worker() {
  Coro<std::string> call = to_thread(testing::current_thread_name);
  co_return co_await std::move(call);
}

TEST_F(ToThreadTest, RunsOnTheLoopsDefaultExecutor) {
  EventLoop loop;
  loop.set_default_executor(std::make_shared<ThreadPoolExecutor>(1, "default"));
  EXPECT_EQ(loop.run_until_complete(name_of_worker()), "default_0");
  EventLoop fresh;
  EXPECT_EQ(fresh.run_until_complete(name_of_worker()), "asyncio_0");
}

ContextVar<std::string> request_id("request_id");

std::string read_then_change_request_id() {
  std::string seen = request_id.get("unset");
  request_id.set("changed in the worker");
  return seen;
}

Coro<std::string> context_round_trip() {
  request_id.set("when created");
  Coro<std::string> call = to_thread(read_then_change_request_id);
  request_id.set("when awaited");
  std::string seen = co_await std::move(call);
  co_return concat("worker saw ", seen, "; task sees ", request_id.get("unset"));
}

TEST_F(ToThreadTest, TheContextIsCopiedWhenItIsAwaitedAndChangesStayInTheCopy) {
  EventLoop loop;
  EXPECT_EQ(loop.run_until_complete(context_round_trip()),
            "worker saw when awaited; task sees when awaited");
}

Coro<std::string> plain_run_in_executor_sees_the_workers_own_context() {
  request_id.set("in the task");
  Future<std::string> seen =
      get_running_loop().run_in_executor(nullptr, [] { return request_id.get("unset"); });
  co_return co_await seen;
}

TEST_F(ToThreadTest, RunInExecutorAloneDoesNotCopyTheContext) {
  EventLoop loop;  // as asyncio: only to_thread copies it
  EXPECT_EQ(loop.run_until_complete(plain_run_in_executor_sees_the_workers_own_context()), "unset");
}

int fails_in_the_worker() { throw ValueError("from to_thread"); }

Coro<std::string> catch_to_thread_error() {
  Coro<int> call = to_thread(fails_in_the_worker);
  try {
    co_await std::move(call);
  } catch (const ValueError& error) {
    co_return concat("caught ", error.what());
  }
  co_return "nothing caught";
}

TEST_F(ToThreadTest, AnExceptionPropagatesToTheAwaitingTask) {
  EventLoop loop;
  EXPECT_EQ(loop.run_until_complete(catch_to_thread_error()), "caught from to_thread");
}

std::size_t length_of(const std::string& text) { return text.size(); }

Coro<std::size_t> arguments_by_value() {
  std::string text = "before";
  Coro<std::size_t> call = to_thread(length_of, text);
  text = "after the call was made";
  co_return co_await std::move(call);
}

TEST_F(ToThreadTest, TheArgumentsAreCopiedWhenTheCallIsMade) {
  EventLoop loop;
  EXPECT_EQ(loop.run_until_complete(arguments_by_value()), 6U);
}

Coro<std::string> after_shutdown_default_executor() {
  EventLoop& loop = get_running_loop();
  Coro<void> shutdown = loop.shutdown_default_executor();
  co_await std::move(shutdown);
  Coro<int> call = to_thread(forty_two);
  try {
    co_await std::move(call);
  } catch (const RuntimeError& error) {
    co_return error.what();
  }
  co_return "no error";
}

TEST_F(ToThreadTest, AfterShutdownDefaultExecutorItRaises) {
  EventLoop loop;
  EXPECT_EQ(loop.run_until_complete(after_shutdown_default_executor()),
            "Executor shutdown has been called");
}

int meet_at(std::barrier<>* both, int value) {
  both->arrive_and_wait();
  return value;
}

Coro<int> fifty_gathers_of_two(std::barrier<>* both) {
  int total = 0;
  for (int round = 0; round < 50; ++round) {
    Coro<int> first = to_thread(meet_at, both, 1);
    Coro<int> second = to_thread(meet_at, both, 2);
    Future<std::vector<int>> pair = gather(get_running_loop(), std::move(first), std::move(second));
    std::vector<int> values = co_await pair;
    total += values.at(0) + values.at(1);
  }
  co_return total;
}

TEST_F(ToThreadTest, FiftyGathersOfTwoBarrierBoundCallsKeepTwoThreads) {
  // Each call waits for the other: every round needs two threads at once.
  // Both are idle before the round's futures complete, so the next round's
  // submits find them: two threads in all, never a third (CPython's idle
  // semaphore is released after the future completes and may start more).
  std::barrier both(2);
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(32);
  loop.set_default_executor(pool);
  EXPECT_EQ(loop.run_until_complete(fifty_gathers_of_two(&both)), 150);
  EXPECT_EQ(pool->thread_count(), 2U);
}

}  // namespace
}  // namespace looplab
