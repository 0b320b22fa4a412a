// What each kind of co_await costs in turns of the loop (asyncio-semantics.md
// 6.2): a done future none, a plain coroutine none, sleep(0) exactly one, a
// future completed in turn k wakes the task in turn k+1, and
// `co_await create_task(child())` two (the child's step, then the wakeup).
#include <gtest/gtest.h>

#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> await_done_future(Future<int> done, Log* log) {
  log->push_back("before");
  int value = co_await done;
  log->push_back("after " + std::to_string(value));
  int again = co_await done;  // as often as we like
  co_return value + again;
}

TEST(AwaitCost, ADoneFutureCostsNoTurn) {
  TestLoop t;
  Log log;
  Future<int> done = t.loop.create_future<int>();
  done.set_result(21);
  Task<int> task = create_task(t.loop, await_done_future(done, &log));
  EXPECT_EQ(t.turns_until_done(task), 1);  // the whole body ran in its first step
  EXPECT_EQ(log, (Log{"before", "after 21"}));
  EXPECT_EQ(task.result(), 42);
}

TEST(AwaitCost, ADoneFutureWithAnExceptionThrowsWithoutATurn) {
  TestLoop t;
  Future<int> failed = t.loop.create_future<int>();
  failed.set_exception(ValueError("already failed"));
  auto body = [](Future<int> f) -> Coro<std::string> {
    try {
      co_await f;
    } catch (const ValueError& error) {
      co_return std::string("caught ") + error.what();
    }
    co_return "not thrown";
  };
  Task<std::string> task = create_task(t.loop, body, failed);
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_EQ(task.result(), "caught already failed");
}

Coro<int> add_one(int x) { co_return x + 1; }
Coro<int> add_two(int x) {
  int once = co_await add_one(x);
  co_return co_await add_one(once);
}
Coro<int> add_three(int x) {
  int twice = co_await add_two(x);
  co_return co_await add_one(twice);
}

TEST(AwaitCost, APlainCoroutineRunsInlineAtNoCost) {
  TestLoop t;
  Task<int> task = create_task(t.loop, add_three(0));
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_EQ(task.result(), 3);
}

TEST(AwaitCost, CallingACoroutineRunsNothingUntilItIsAwaited) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<int> {
    Coro<int> lazy = [](Log* log) -> Coro<int> {
      log->push_back("child body");
      co_return 5;
    }(log);
    log->push_back("child made, not started");
    int value = co_await std::move(lazy);
    log->push_back("child returned " + std::to_string(value));
    co_return value;
  };
  Task<int> task = create_task(t.loop, body, &log);
  t.turn();
  EXPECT_EQ(log, (Log{"child made, not started", "child body", "child returned 5"}));
}

Coro<int> child(Log* log) {
  log->push_back("child step");
  co_return 7;
}

Coro<int> await_new_task(EventLoop* loop, Log* log) {
  log->push_back("parent starts child");
  int value = co_await create_task(*loop, child(log));
  log->push_back("parent resumed with " + std::to_string(value));
  co_return value;
}

TEST(AwaitCost, AwaitingANewTaskCostsTwoTurns) {
  TestLoop t;
  Log log;
  Task<int> parent = create_task(t.loop, await_new_task(&t.loop, &log));
  t.turn();
  EXPECT_EQ(log, Log{"parent starts child"});
  t.turn();  // the child's first (and only) step
  EXPECT_EQ(log, (Log{"parent starts child", "child step"}));
  EXPECT_FALSE(parent.done());
  t.turn();  // the parent's wakeup
  EXPECT_EQ(log, (Log{"parent starts child", "child step", "parent resumed with 7"}));
  EXPECT_TRUE(parent.done());
}

Coro<void> yield_three_times(Log* log, std::string name) {
  for (int i = 1; i <= 3; ++i) {
    log->push_back(name + std::to_string(i));
    co_await sleep(0s);
  }
}

TEST(AwaitCost, SleepZeroIsExactlyOneTurn) {
  TestLoop t;
  Log log;
  Task<void> task = create_task(t.loop, yield_three_times(&log, "a"));
  t.turn();
  EXPECT_EQ(log, Log{"a1"});
  t.turn();
  EXPECT_EQ(log, (Log{"a1", "a2"}));
  t.turn();
  EXPECT_EQ(log, (Log{"a1", "a2", "a3"}));
  EXPECT_FALSE(task.done());
  t.turn();
  EXPECT_TRUE(task.done());
  EXPECT_EQ(t.loop.scheduled_count(), 0u);  // no timer was ever involved
}

TEST(AwaitCost, SleepZeroInterleavesTasksRoundRobin) {
  TestLoop t;
  Log log;
  Task<void> a = create_task(t.loop, yield_three_times(&log, "a"));
  Task<void> b = create_task(t.loop, yield_three_times(&log, "b"));
  t.loop.run_until_complete(b);
  EXPECT_EQ(log, (Log{"a1", "b1", "a2", "b2", "a3", "b3"}));
}

TEST(AwaitCost, SleepZeroGoesBehindCallbacksAlreadyQueued) {
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<void> {
    log->push_back("task before");
    loop->call_soon([log] { log->push_back("callback queued by the task"); });
    co_await sleep(0s);
    log->push_back("task after");
  };
  Task<void> task = create_task(t.loop, body, &t.loop, &log);
  t.turn();
  t.turn();
  EXPECT_EQ(log, (Log{"task before", "callback queued by the task", "task after"}));
}

TEST(AwaitCost, ANegativeSleepIsOneBareYieldToo) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<void> {
    co_await sleep(-5s);
    log->push_back("resumed");
  };
  Task<void> task = create_task(t.loop, body, &log);
  t.turn();
  EXPECT_TRUE(log.empty());
  t.turn();
  EXPECT_EQ(log, Log{"resumed"});
  EXPECT_EQ(t.loop.scheduled_count(), 0u);
}

Coro<int> await_pending(Future<int> future, Log* log) {
  log->push_back("waiting");
  int value = co_await future;
  log->push_back("woke with " + std::to_string(value));
  co_return value;
}

TEST(AwaitCost, AFutureCompletedInTurnKWakesTheTaskInTurnKPlusOne) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, await_pending(future, &log));
  t.turn();
  EXPECT_EQ(log, Log{"waiting"});
  t.turns(3);  // nothing happens while the future is pending
  EXPECT_EQ(log, Log{"waiting"});
  t.loop.call_soon([&] {
    future.set_result(9);
    log.push_back("set in this turn");
  });
  t.turn();
  EXPECT_EQ(log, (Log{"waiting", "set in this turn"}));
  t.turn();
  EXPECT_EQ(log, (Log{"waiting", "set in this turn", "woke with 9"}));
}

TEST(AwaitCost, SleepWithADelayResumesOneTurnAfterItsTimer) {
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<void> {
    co_await sleep(1500ms);
    log->push_back("woke at " + std::to_string(testing::seconds(loop->time())));
  };
  Task<void> task = create_task(t.loop, body, &t.loop, &log);
  t.loop.run_until_complete(task);
  EXPECT_EQ(log, Log{"woke at 1.500000"});
}

}  // namespace
}  // namespace looplab
