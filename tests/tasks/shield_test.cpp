// shield() (asyncio-semantics.md 6.5): cancelling the outer future leaves the
// inner one running; cancelling the inner one cancels the outer.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "looplab/gather.hpp"
#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> work(std::chrono::milliseconds delay, int value, Log* log) {
  co_await sleep(delay);
  log->push_back("inner finished with " + std::to_string(value));
  co_return value;
}

Coro<int> awaits_shielded(Task<int> inner, Log* log) {
  try {
    Future<int> shielded = shield(Future<int>(inner));
    co_return co_await shielded;
  } catch (const CancelledError&) {
    log->push_back("outer task cancelled");
    throw;
  }
}

TEST(Shield, CancellingTheAwaitingTaskLeavesTheInnerRunning) {
  TestLoop t;
  Log log;
  Task<int> inner = create_task(t.loop, work(1000ms, 5, &log));
  Task<int> outer = create_task(t.loop, awaits_shielded(inner, &log));
  t.turn();
  EXPECT_TRUE(outer.cancel());
  EXPECT_EQ(inner.cancelling(), 0);  // the cancellation stopped at the shield
  t.turns(2);
  EXPECT_TRUE(outer.cancelled());
  EXPECT_FALSE(inner.done());
  EXPECT_EQ(t.loop.run_until_complete(inner), 5);
  EXPECT_EQ(log, (Log{"outer task cancelled", "inner finished with 5"}));
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
  EXPECT_TRUE(t.reports.empty());
}

Coro<int> awaits_shielded_coroutine(Log* log) {
  try {
    co_return co_await shield(work(1000ms, 5, log));
  } catch (const CancelledError&) {
    log->push_back("outer task cancelled");
    throw;
  }
}

Coro<void> idle(std::chrono::milliseconds delay) { co_await sleep(delay); }

TEST(Shield, ACoroutineBecomesATaskThatRunsOnWhenTheAwaitingTaskIsCancelled) {
  // asyncio.shield(coro): ensure_future() makes the coroutine a task, which
  // nobody else holds and which still runs to its end.
  TestLoop t;
  Log log;
  Task<int> outer = create_task(t.loop, awaits_shielded_coroutine(&log));
  t.turn();
  EXPECT_EQ(all_tasks(t.loop).size(), 2u);  // the outer and the shielded coroutine's task
  EXPECT_TRUE(outer.cancel());
  t.turns(2);
  EXPECT_TRUE(outer.cancelled());
  t.loop.run_until_complete(idle(2000ms));
  EXPECT_EQ(log, (Log{"outer task cancelled", "inner finished with 5"}));
  EXPECT_TRUE(all_tasks(t.loop).empty());
}

TEST(Shield, ACoroutineThatCannotRunIsRefusedAndNoTaskIsMade) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<std::string> {
    Coro<int> coro = work(0ms, 1, log);
    Coro<int> taken = std::move(coro);
    try {
      (void)shield(std::move(coro));
    } catch (const TypeError& error) {
      co_return error.what();
    }
    co_return "accepted";
  };
  Task<std::string> task = create_task(t.loop, body, &log);
  EXPECT_EQ(t.loop.run_until_complete(task),
            "shield(): a coroutine was expected, got an empty Coro");
  EXPECT_TRUE(all_tasks(t.loop).empty());
  EXPECT_TRUE(log.empty());
}

TEST(Shield, CancellingTheShieldItselfLeavesTheInnerRunning) {
  TestLoop t;
  Log log;
  Task<int> inner = create_task(t.loop, work(1000ms, 5, &log));
  Future<int> outer = shield(Future<int>(inner));
  EXPECT_TRUE(outer.cancel());
  EXPECT_TRUE(outer.cancelled());
  EXPECT_FALSE(inner.done());
  EXPECT_EQ(t.loop.run_until_complete(inner), 5);
}

TEST(Shield, CancellingTheInnerCancelsTheOuter) {
  TestLoop t;
  Log log;
  Task<int> inner = create_task(t.loop, work(1000ms, 5, &log));
  Future<int> outer = shield(Future<int>(inner));
  t.turn();
  inner.cancel();
  t.turn();  // inner's step: it ends cancelled
  EXPECT_TRUE(inner.cancelled());
  EXPECT_FALSE(outer.done());
  t.turn();  // the shield's callback
  EXPECT_TRUE(outer.cancelled());
}

TEST(Shield, TheInnerResultAndErrorReachTheOuter) {
  TestLoop t;
  Future<int> ok = t.loop.create_future<int>();
  Future<int> bad = t.loop.create_future<int>();
  Future<int> ok_outer = shield(ok);
  Future<int> bad_outer = shield(bad);
  ok.set_result(3);
  bad.set_exception(ValueError("inner error"));
  t.turn();
  EXPECT_EQ(ok_outer.result(), 3);
  EXPECT_EQ(testing::describe(bad_outer.exception()), "ValueError: inner error");
}

TEST(Shield, ADoneInnerIsReturnedAsItIs) {
  TestLoop t;
  Future<int> done = t.loop.create_future<int>();
  done.set_result(1);
  EXPECT_TRUE(shield(done) == done);
  Future<int> pending = t.loop.create_future<int>();
  EXPECT_FALSE(shield(pending) == pending);
  pending.cancel();
}

TEST(Shield, AnInnerErrorAfterTheOuterWasCancelledIsNotReportedAsNeverRetrieved) {
  TestLoop t;
  {
    Future<int> inner = t.loop.create_future<int>();
    Future<int> outer = shield(inner);
    outer.cancel();
    inner.set_exception(ValueError("nobody waits for me"));
    t.turns(2);
  }
  EXPECT_TRUE(t.reports.empty());
}

TEST(Shield, AShieldOfATaskStillPendingWhenTheLoopClosesLeaksNothing) {
  // inner holds the shield's callback, which holds the outer future, whose
  // callback holds inner: closing the loop drops the destroyed task's
  // callbacks and so breaks the cycle (the ASan build's leak checker would
  // fail the test binary otherwise).
  // LeakSanitizer is conservative and can miss a cycle: a token held by a
  // callback of the outer future is freed only if that future is.
  TestLoop t;
  Log log;
  std::weak_ptr<int> token_alive;
  {
    Task<int> inner = create_task(t.loop, work(1000ms, 5, &log));
    Future<int> outer = shield(Future<int>(inner));
    auto token = std::make_shared<int>(0);
    token_alive = token;
    outer.add_done_callback([token](Future<int>&) {});
    t.turn();
  }
  t.loop.close();
  EXPECT_EQ(t.reports.size(), 1u);
  EXPECT_TRUE(token_alive.expired()) << "the shield's outer future and its inner task leaked";
}

}  // namespace
}  // namespace looplab
