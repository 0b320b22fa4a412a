// Task.cancel() (asyncio-semantics.md 6.3): it cancels the future the task
// waits for, or makes the next step throw CancelledError where the coroutine
// is suspended; the coroutine may catch it; cancelling()/uncancel() count
// the requests.
#include <gtest/gtest.h>

#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> never_started(Log* log, testing::DestructionCounter) {
  log->push_back("body ran");
  co_return 1;
}

TEST(Cancellation, BeforeTheFirstStepTheBodyNeverRuns) {
  TestLoop t;
  Log log;
  int destroyed = 0;
  Task<int> task =
      create_task(t.loop, never_started(&log, testing::DestructionCounter(&destroyed)));
  EXPECT_TRUE(task.cancel("early"));
  EXPECT_EQ(task.cancelling(), 1);
  EXPECT_FALSE(task.done());  // cancelled at its next step, not now
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(destroyed, 1);  // its frame went, parameters and all
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "early");
}

Coro<int> waits_on(Future<int> future, Log* log) {
  try {
    co_return co_await future;
  } catch (const CancelledError& error) {
    log->push_back(std::string("caught CancelledError(") + error.what() + ")");
    throw;
  }
}

TEST(Cancellation, WhileAwaitingAFutureTheFutureIsCancelled) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, waits_on(future, &log));
  t.turn();
  EXPECT_TRUE(task.cancel("stop"));
  EXPECT_TRUE(future.cancelled());  // at once, by cancel() itself
  EXPECT_FALSE(task.done());
  t.turn();  // the future's done callback wakes the task with its CancelledError
  EXPECT_EQ(log, Log{"caught CancelledError(stop)"});
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(testing::cancelled_message_of([&] { future.result(); }), "stop");
}

TEST(Cancellation, WhileSleepingTheTimerIsCancelledWhenTheTaskResumes) {
  TestLoop t;
  auto body = []() -> Coro<void> { co_await sleep(10s); };
  Task<void> task = create_task(t.loop, body);
  t.turn();
  EXPECT_EQ(t.loop.scheduled_count(), 1u);
  EXPECT_EQ(t.loop.timer_cancelled_count(), 0u);
  task.cancel();
  // asyncio.sleep cancels its timer in its `finally`, when the task resumes.
  EXPECT_EQ(t.loop.timer_cancelled_count(), 0u);
  t.turn();
  EXPECT_EQ(t.loop.timer_cancelled_count(), 1u);
  EXPECT_TRUE(task.cancelled());
  EXPECT_DOUBLE_EQ(t.now(), 0.0);  // nobody waited for the ten seconds
}

Coro<void> yields_then_logs(Log* log) {
  log->push_back("step 1");
  try {
    co_await sleep(0s);
  } catch (const CancelledError&) {
    log->push_back("CancelledError at the yield");
    throw;
  }
  log->push_back("step 2");
}

TEST(Cancellation, WhileYieldingItIsDeliveredAtTheNextStep) {
  TestLoop t;
  Log log;
  Task<void> task = create_task(t.loop, yields_then_logs(&log));
  t.turn();
  EXPECT_TRUE(task.cancel());  // no future to cancel: _must_cancel
  t.turn();
  EXPECT_EQ(log, (Log{"step 1", "CancelledError at the yield"}));
  EXPECT_TRUE(task.cancelled());
}

Coro<int> catches_and_returns(Future<int> future, Log* log) {
  try {
    co_await future;
  } catch (const CancelledError&) {
    log->push_back("caught, returning 7");
  }
  co_return 7;
}

TEST(Cancellation, ACoroutineThatCatchesItAndReturnsIsNotCancelled) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, catches_and_returns(future, &log));
  t.turn();
  task.cancel();
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_FALSE(task.cancelled());
  EXPECT_EQ(task.result(), 7);
  EXPECT_EQ(task.cancelling(), 1);  // nobody took the request back
  EXPECT_EQ(log, Log{"caught, returning 7"});
}

TEST(Cancellation, ACoroutineThatThrowsCancelledErrorItselfEndsCancelled) {
  TestLoop t;
  auto body = []() -> Coro<int> {
    co_await sleep(0s);
    throw CancelledError("by itself");
  };
  Task<int> task = create_task(t.loop, body);
  t.turns(2);
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(task.cancelling(), 0);  // nobody called cancel()
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "by itself");
  EXPECT_TRUE(t.reports.empty());
}

Coro<int> survives_one_cancel(Future<int> future, Log* log) {
  try {
    co_await future;
  } catch (const CancelledError& error) {
    log->push_back(std::string("caught ") + error.what());
  }
  co_await sleep(0s);  // a second CancelledError would come here: none does
  log->push_back("after sleep(0)");
  co_return 5;
}

TEST(Cancellation, TwoCancelsWhileWaitingOnOneFutureDeliverOneError) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, survives_one_cancel(future, &log));
  t.turn();
  EXPECT_TRUE(task.cancel("first"));   // cancels the future
  EXPECT_TRUE(task.cancel("second"));  // the future is done: _must_cancel instead
  EXPECT_EQ(task.cancelling(), 2);
  t.loop.run_until_complete(task);
  EXPECT_EQ(log, (Log{"caught first", "after sleep(0)"}));
  EXPECT_EQ(task.result(), 5);
  EXPECT_EQ(task.cancelling(), 2);
}

TEST(Cancellation, CancelAfterTheFutureCompletedButBeforeTheWakeupDiscardsTheResult) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, waits_on(future, &log));
  t.turn();
  future.set_result(99);  // the wakeup is queued, not run
  EXPECT_TRUE(task.cancel("too late for 99"));
  EXPECT_FALSE(future.cancelled());  // it was done already
  t.turn();
  EXPECT_EQ(log, Log{"caught CancelledError(too late for 99)"});
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(future.result(), 99);  // the value is still in the future, just not delivered
}

TEST(Cancellation, CancelThenUncancelBeforeTheFirstStepLetsTheTaskRun) {
  // CPython 3.13: uncancel() reaching zero also clears _must_cancel (3.12 does not).
  TestLoop t;
  Log log;
  int destroyed = 0;
  Task<int> task =
      create_task(t.loop, never_started(&log, testing::DestructionCounter(&destroyed)));
  EXPECT_TRUE(task.cancel());
  EXPECT_EQ(task.uncancel(), 0);
  t.turn();
  EXPECT_EQ(log, Log{"body ran"});
  EXPECT_EQ(task.result(), 1);
}

TEST(Cancellation, UncancelOnlyCountsDownWhileRequestsRemain) {
  TestLoop t;
  Log log;
  int destroyed = 0;
  Task<int> task =
      create_task(t.loop, never_started(&log, testing::DestructionCounter(&destroyed)));
  EXPECT_EQ(task.uncancel(), 0);  // nothing to take back: stays 0
  EXPECT_EQ(task.cancelling(), 0);
  task.cancel();
  task.cancel();
  EXPECT_EQ(task.cancelling(), 2);
  EXPECT_EQ(task.uncancel(), 1);  // one request is left: still cancelled
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(task.cancelling(), 1);
}

TEST(Cancellation, CancelOfADoneTaskReturnsFalseAndCountsNothing) {
  TestLoop t;
  Log log;
  int destroyed = 0;
  Task<int> task =
      create_task(t.loop, never_started(&log, testing::DestructionCounter(&destroyed)));
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_FALSE(task.cancel());
  EXPECT_EQ(task.cancelling(), 0);
  EXPECT_FALSE(task.cancelled());
  EXPECT_EQ(task.result(), 1);

  Task<int> cancelled =
      create_task(t.loop, never_started(&log, testing::DestructionCounter(&destroyed)));
  cancelled.cancel();
  t.turn();
  EXPECT_FALSE(cancelled.cancel());
  EXPECT_EQ(cancelled.cancelling(), 1);
}

Coro<int> inner_work(Log* log) {
  try {
    co_await sleep(5s);
  } catch (const CancelledError& error) {
    log->push_back(std::string("inner cancelled: ") + error.what());
    throw;
  }
  co_return 1;
}

Coro<int> outer_awaits(Task<int> inner, Log* log) {
  try {
    co_return co_await inner;
  } catch (const CancelledError& error) {
    log->push_back(std::string("outer cancelled: ") + error.what());
    throw;
  }
}

TEST(Cancellation, CancellingATaskThatAwaitsAnotherTaskCancelsTheInnerOne) {
  TestLoop t;
  Log log;
  Task<int> inner = create_task(t.loop, inner_work(&log));
  Task<int> outer = create_task(t.loop, outer_awaits(inner, &log));
  t.turn();
  EXPECT_TRUE(outer.cancel("from outside"));
  EXPECT_EQ(inner.cancelling(), 1);  // outer.cancel() called inner.cancel()
  EXPECT_EQ(outer.cancelling(), 1);
  EXPECT_FALSE(inner.done());  // a task is cancelled at its next step
  t.turn();                    // inner: CancelledError thrown into its sleep
  EXPECT_TRUE(inner.cancelled());
  EXPECT_FALSE(outer.done());
  t.turn();  // outer: wakes up with the inner's CancelledError
  EXPECT_TRUE(outer.cancelled());
  EXPECT_EQ(log, (Log{"inner cancelled: from outside", "outer cancelled: from outside"}));
}

TEST(Cancellation, ATaskThatCancelsItselfHasTheFutureItThenAwaitsCancelledAtOnce) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  auto body = [](Future<int> f, Log* log) -> Coro<int> {
    TaskBase::current()->as_future().cancel("myself");
    log->push_back("cancelled myself, now awaiting");
    co_return co_await waits_on(f, log);
  };
  Task<int> task = create_task(t.loop, body, future, &log);
  t.turn();
  EXPECT_TRUE(future.cancelled());  // at the end of the step that suspended on it
  EXPECT_FALSE(task.done());
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(log, (Log{"cancelled myself, now awaiting", "caught CancelledError(myself)"}));
}

TEST(Cancellation, ATaskThatCancelsItselfAndReturnsEndsCancelled) {
  TestLoop t;
  auto body = []() -> Coro<int> {
    TaskBase::current()->as_future().cancel("then returned");
    co_return 3;  // the value is dropped: Task.__step sees _must_cancel at StopIteration
  };
  Task<int> task = create_task(t.loop, body);
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "then returned");
}

TEST(Cancellation, ACancelledErrorCaughtInAnInnerCoroutineStaysThere) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  auto body = [](Future<int> f, Log* log) -> Coro<int> {
    int value = co_await catches_and_returns(f, log);
    log->push_back("outer frame goes on with " + std::to_string(value));
    co_await sleep(0s);
    co_return value + 1;
  };
  Task<int> task = create_task(t.loop, body, future, &log);
  t.turn();
  task.cancel();
  EXPECT_EQ(t.loop.run_until_complete(task), 8);
  EXPECT_EQ(log, (Log{"caught, returning 7", "outer frame goes on with 7"}));
}

// A task knows the CancelledError it threw in when it comes back out, and
// ends cancelled without rethrowing it (task.hpp, is_own_cancellation()).
// What it must still get right, as CPython 3.12 and 3.13 do: the message is
// that of the error the coroutine ended with, whoever made it.

TEST(Cancellation, AFutureCancelledByAnotherHandEndsTheTaskWithTheFuturesMessage) {
  TestLoop t;
  Log log;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, waits_on(future, &log));
  t.turn();
  future.cancel("from outside");  // not through the task
  t.turn();
  EXPECT_EQ(log, Log{"caught CancelledError(from outside)"});
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(task.cancelling(), 0);
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "from outside");
}

Coro<int> replaces_the_cancellation(Future<int> future) {
  try {
    co_await future;
  } catch (const CancelledError&) {
    throw CancelledError("replaced");
  }
  co_return 0;
}

TEST(Cancellation, ACoroutineThatReplacesTheCancelledErrorEndsWithTheNewMessage) {
  TestLoop t;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, replaces_the_cancellation(future));
  t.turn();
  task.cancel("sent");
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "replaced");
}

Coro<int> cancels_itself_again_and_rethrows(Future<int> future) {
  try {
    co_await future;
  } catch (const CancelledError&) {
    TaskBase::current()->cancel("second");  // a new request, while the first unwinds
    throw;
  }
  co_return 0;
}

TEST(Cancellation, ACancelledErrorRethrownAfterANewCancelKeepsItsOwnMessage) {
  TestLoop t;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, cancels_itself_again_and_rethrows(future));
  t.turn();
  task.cancel("first");
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(task.cancelling(), 2);
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "first");
}

Coro<int> cancels_itself_takes_it_back_and_rethrows(Future<int> future) {
  try {
    co_await future;
  } catch (const CancelledError&) {
    TaskBase* self = TaskBase::current();
    self->cancel("second");
    self->uncancel();  // down to zero: the second request is dropped, not delivered
    self->uncancel();
    throw;
  }
  co_return 0;
}

TEST(Cancellation, ACancelledErrorRethrownAfterACancelTakenBackKeepsItsOwnMessage) {
  TestLoop t;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, cancels_itself_takes_it_back_and_rethrows(future));
  t.turn();
  task.cancel("first");
  t.turn();
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(task.cancelling(), 0);
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "first");
}

Coro<int> turns_the_cancellation_into_an_error(Future<int> future) {
  try {
    co_await future;
  } catch (const CancelledError&) {
    throw ValueError("not cancelled after all");
  }
  co_return 0;
}

TEST(Cancellation, ACoroutineThatTurnsTheCancelledErrorIntoAnErrorEndsWithTheError) {
  TestLoop t;
  Future<int> future = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, turns_the_cancellation_into_an_error(future));
  t.turn();
  task.cancel("sent");
  t.turn();
  EXPECT_FALSE(task.cancelled());
  EXPECT_EQ(testing::describe(task.exception()), "ValueError: not cancelled after all");
}

}  // namespace
}  // namespace looplab
