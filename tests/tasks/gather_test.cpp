// gather() (asyncio-semantics.md 6.5): results in argument order; the first
// error fails the outer future while the other children go on; with
// return_exceptions every outcome is collected; cancelling the outer
// cancels the children.
#include "looplab/gather.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> after(std::chrono::milliseconds delay, int value, Log* log) {
  co_await sleep(delay);
  log->push_back("child " + std::to_string(value) + " done");
  co_return value;
}

Coro<void> sleep_for(std::chrono::milliseconds delay) { co_await sleep(delay); }

Coro<int> fails_after(std::chrono::milliseconds delay, std::string message, Log* log) {
  co_await sleep(delay);
  log->push_back("child fails: " + message);
  throw ValueError(message);
}

TEST(Gather, ResultsComeInArgumentOrderNotCompletionOrder) {
  TestLoop t;
  Log log;
  Task<int> slow = create_task(t.loop, after(300ms, 1, &log));
  Task<int> fast = create_task(t.loop, after(100ms, 2, &log));
  Task<int> middle = create_task(t.loop, after(200ms, 3, &log));
  Future<std::vector<int>> all = gather(t.loop, slow, fast, middle);
  EXPECT_EQ(t.loop.run_until_complete(all), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(log, (Log{"child 2 done", "child 3 done", "child 1 done"}));
  EXPECT_DOUBLE_EQ(t.now(), 0.3);
}

TEST(Gather, TheVectorFormTakesAnyNumberOfChildren) {
  TestLoop t;
  Log log;
  std::vector<Future<int>> children;
  for (int i = 0; i < 10; ++i)
    children.push_back(create_task(t.loop, after(10ms * (10 - i), i, &log)));
  std::vector<int> expected{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(t.loop.run_until_complete(gather(t.loop, std::move(children))), expected);
}

TEST(Gather, ReprNamesTheGatheringFuture) {
  // As repr() of asyncio's _GatheringFuture, the class the never-retrieved
  // report names too.
  TestLoop t;
  Future<int> child = t.loop.create_future<int>();
  Future<std::vector<int>> all = gather(t.loop, std::vector<Future<int>>{child});
  EXPECT_EQ(all.repr(), "<_GatheringFuture pending>");
  child.set_exception(ValueError("x"));
  t.turns(1);
  EXPECT_EQ(all.repr(), "<_GatheringFuture finished exception=ValueError('x')>");
  (void)all.exception();
}

Coro<void> logs_after(std::chrono::milliseconds delay, std::string what, Log* log) {
  co_await sleep(delay);
  log->push_back(what);
}

TEST(GatherReturnExceptions, ACancelledChildsOutcomeIsCancelledErrorWithAnEmptyMessage) {
  // asyncio: CancelledError('' if fut._cancel_message is None else ...),
  // whose repr is CancelledError(''), where the task's own is CancelledError().
  TestLoop t;
  Future<int> child = t.loop.create_future<int>();
  child.cancel();
  Future<std::vector<Outcome<int>>> all =
      gather_return_exceptions(t.loop, std::vector<Future<int>>{child});
  t.turn();
  EXPECT_EQ(exception_repr(all.result()[0].exception), "CancelledError('')");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(CancelledError())), "CancelledError()");
}

TEST(Gather, CoroutinesThatReturnNothingGiveNoneEach) {
  // asyncio.gather(a(), b()) of coroutines returning None: [None, None].
  TestLoop t;
  Log log;
  Future<std::vector<std::monostate>> all =
      gather(t.loop, logs_after(20ms, "a", &log), logs_after(10ms, "b", &log));
  t.loop.run_until_complete(all);
  EXPECT_EQ(all.result().size(), 2u);
  EXPECT_EQ(all.repr(), "<_GatheringFuture finished result=[None, None]>");
  EXPECT_EQ(log, (Log{"b", "a"}));
  std::vector<Coro<void>> failing;
  failing.push_back(logs_after(10ms, "c", &log));
  failing.push_back([]() -> Coro<void> {
    throw ValueError("void child");
    co_return;
  }());
  Future<std::vector<Outcome<std::monostate>>> outcomes =
      gather_return_exceptions(t.loop, std::move(failing));
  t.loop.run_until_complete(outcomes);
  EXPECT_TRUE(outcomes.result()[0].value.has_value());
  EXPECT_EQ(testing::describe(outcomes.result()[1].exception), "ValueError: void child");
}

TEST(Gather, ReprShowsTheResultsAsAListAndAnEmptyGatherIsAPlainFuture) {
  TestLoop t;
  std::vector<Future<int>> children;
  for (int i = 0; i < 8; ++i) {
    children.push_back(t.loop.create_future<int>());
    children.back().set_result(i);
  }
  Future<std::vector<int>> all = gather(t.loop, std::move(children));
  EXPECT_EQ(all.repr(), "<_GatheringFuture finished result=[0, 1, 2, 3, 4, 5, ...]>");
  // asyncio.gather() of nothing is a plain future, done with [].
  EXPECT_EQ(gather(t.loop, std::vector<Future<int>>{}).repr(), "<Future finished result=[]>");
}

TEST(Gather, TheOuterCompletesOneTurnAfterTheLastChild) {
  TestLoop t;
  Future<int> a = t.loop.create_future<int>();
  Future<int> b = t.loop.create_future<int>();
  Future<std::vector<int>> all = gather(t.loop, a, b);
  a.set_result(1);
  t.turn();
  EXPECT_FALSE(all.done());
  b.set_result(2);
  EXPECT_FALSE(all.done());  // done callbacks are never inline
  t.turn();
  EXPECT_TRUE(all.done());
  EXPECT_EQ(all.result(), (std::vector<int>{1, 2}));
}

TEST(Gather, ChildrenAlreadyDoneCompleteTheOuterBeforeGatherReturns) {
  // CPython 3.12+: done children are handled at once, not through call_soon.
  TestLoop t;
  Future<int> a = t.loop.create_future<int>();
  Future<int> b = t.loop.create_future<int>();
  a.set_result(1);
  b.set_result(2);
  Future<std::vector<int>> all = gather(t.loop, a, b);
  EXPECT_TRUE(all.done());
  EXPECT_EQ(all.result(), (std::vector<int>{1, 2}));

  Future<int> failed = t.loop.create_future<int>();
  failed.set_exception(ValueError("done and failed"));
  Future<int> pending = t.loop.create_future<int>();
  Future<std::vector<int>> fails = gather(t.loop, pending, failed);
  EXPECT_TRUE(fails.done());  // the first error decides it, pending or not
  EXPECT_EQ(testing::describe(fails.exception()), "ValueError: done and failed");
  pending.cancel();
}

TEST(Gather, AnEmptyGatherIsDoneAtOnceAndAwaitingItCostsNoTurn) {
  TestLoop t;
  Future<std::vector<int>> none = gather(t.loop, std::vector<Future<int>>{});
  EXPECT_TRUE(none.done());
  EXPECT_TRUE(none.result().empty());
  auto body = [](EventLoop* loop) -> Coro<std::size_t> {
    std::vector<Future<int>> nothing;
    std::vector<int> results = co_await gather(*loop, std::move(nothing));
    co_return results.size();
  };
  Task<std::size_t> task = create_task(t.loop, body, &t.loop);
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_EQ(task.result(), 0u);
}

Coro<std::string> gather_and_catch(EventLoop* loop, Task<int> a, Task<int> b, Log* log) {
  try {
    std::vector<int> values = co_await gather(*loop, a, b);
    co_return "results " + std::to_string(values.size());
  } catch (const ValueError& error) {
    log->push_back("gather failed at " + std::to_string(testing::seconds(loop->time())));
    co_return std::string("caught ") + error.what();
  }
}

TEST(Gather, TheFirstErrorFailsTheOuterAndTheOtherChildrenGoOn) {
  TestLoop t;
  Log log;
  Task<int> ok = create_task(t.loop, after(2000ms, 1, &log));
  Task<int> bad = create_task(t.loop, fails_after(1000ms, "first", &log));
  Task<std::string> main = create_task(t.loop, gather_and_catch(&t.loop, ok, bad, &log));
  EXPECT_EQ(t.loop.run_until_complete(main), "caught first");
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
  EXPECT_FALSE(ok.done());  // not cancelled: still running
  EXPECT_EQ(t.loop.run_until_complete(ok), 1);
  EXPECT_FALSE(ok.cancelled());
  EXPECT_EQ(log, (Log{"child fails: first", "gather failed at 1.000000", "child 1 done"}));
  EXPECT_TRUE(t.reports.empty());
}

TEST(Gather, ErrorsAfterTheFirstAreMarkedRetrieved) {
  TestLoop t;
  Log log;
  {
    Task<int> one = create_task(t.loop, fails_after(100ms, "one", &log));
    Task<int> two = create_task(t.loop, fails_after(200ms, "two", &log));
    Future<std::vector<int>> all = gather(t.loop, one, two);
    EXPECT_EQ(testing::thrown_by([&] { t.loop.run_until_complete(all); }), "ValueError: one");
    t.run_until_done(two);  // gather's callback for "two" runs in that last turn too
  }
  EXPECT_TRUE(t.reports.empty());  // nobody but gather looked at "two"
}

TEST(Gather, AChildThatCannotRunFailsTheCallAndTheChildrenMadeBeforeItReportNothing) {
  // asyncio.gather(a(f), None): TypeError, and a's later error is seen by
  // gather's callback (asyncio's outer is still None), not reported.
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<std::string> {
    Coro<int> used = after(0ms, 0, log);
    Coro<int> taken = std::move(used);
    try {
      (void)gather(*loop, fails_after(1000ms, "later", log), std::move(used));
    } catch (const TypeError& error) {
      co_return error.what();
    }
    co_return "accepted";
  };
  Task<std::string> task = create_task(t.loop, body, &t.loop, &log);
  EXPECT_EQ(t.loop.run_until_complete(task),
            "create_task(): a coroutine was expected, got an empty Coro");
  t.loop.run_until_complete(sleep_for(2000ms));
  EXPECT_EQ(log, Log{"child fails: later"});
  EXPECT_TRUE(t.reports.empty());
}

TEST(Gather, AVoidChildThatCannotRunIsRefusedAfterTheChildrenBeforeItStarted) {
  // The same for coroutines that return nothing: the children before the
  // refused one are tasks already, and run.
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<std::string> {
    Coro<void> used = logs_after(0ms, "unused", log);
    Coro<void> taken = std::move(used);
    try {
      (void)gather(*loop, logs_after(10ms, "first child ran", log), std::move(used));
    } catch (const TypeError& error) {
      co_return error.what();
    }
    co_return "accepted";
  };
  Task<std::string> task = create_task(t.loop, body, &t.loop, &log);
  EXPECT_EQ(t.loop.run_until_complete(task),
            "create_task(): a coroutine was expected, got an empty Coro");
  t.loop.run_until_complete(sleep_for(20ms));
  EXPECT_EQ(log, Log{"first child ran"});
}

TEST(Gather, ACancelledChildFailsTheOuterWithCancelledErrorButTheOuterIsNotCancelled) {
  TestLoop t;
  Future<int> a = t.loop.create_future<int>();
  Future<int> b = t.loop.create_future<int>();
  Future<std::vector<int>> all = gather(t.loop, a, b);
  a.cancel("child went");
  t.turn();
  ASSERT_TRUE(all.done());
  EXPECT_FALSE(all.cancelled());  // FINISHED with a CancelledError, as _GatheringFuture does
  EXPECT_EQ(testing::cancelled_message_of([&] { std::rethrow_exception(all.exception()); }),
            "child went");
  EXPECT_FALSE(b.done());
  b.cancel();
}

TEST(GatherReturnExceptions, EveryOutcomeIsCollectedInOrder) {
  TestLoop t;
  Log log;
  Task<int> ok = create_task(t.loop, after(300ms, 1, &log));
  Task<int> bad = create_task(t.loop, fails_after(100ms, "bad", &log));
  Task<int> cancelled_task = create_task(t.loop, after(200ms, 3, &log));
  Future<int> cancelled_future = t.loop.create_future<int>();
  Future<std::vector<Outcome<int>>> all =
      gather_return_exceptions(t.loop, ok, bad, cancelled_task, cancelled_future);
  cancelled_task.cancel();
  cancelled_future.cancel("no thanks");
  std::vector<Outcome<int>> outcomes = t.loop.run_until_complete(all);
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(outcomes[0].value, 1);
  EXPECT_FALSE(outcomes[0].exception);
  EXPECT_FALSE(outcomes[1].value);
  EXPECT_EQ(testing::describe(outcomes[1].exception), "ValueError: bad");
  EXPECT_FALSE(outcomes[2].value);
  EXPECT_EQ(testing::cancelled_message_of([&] { std::rethrow_exception(outcomes[2].exception); }),
            "");
  // A cancelled child's message comes along (a future's: asyncio keeps a
  // task's message only in the first CancelledError it hands out).
  EXPECT_FALSE(outcomes[3].value);
  EXPECT_EQ(testing::cancelled_message_of([&] { std::rethrow_exception(outcomes[3].exception); }),
            "no thanks");
  EXPECT_DOUBLE_EQ(t.now(), 0.3);  // waited for all of them
  EXPECT_TRUE(t.reports.empty());  // the error was retrieved
}

Coro<std::string> awaits_gather(Future<std::vector<int>> all, Log* log) {
  try {
    co_await all;
  } catch (const CancelledError& error) {
    log->push_back(std::string("awaiting task got CancelledError(") + error.what() + ")");
    throw;
  }
  co_return "not cancelled";
}

TEST(Gather, CancellingTheOuterCancelsTheChildrenAndEndsWithCancelledError) {
  TestLoop t;
  Log log;
  Task<int> a = create_task(t.loop, after(1000ms, 1, &log));
  Task<int> b = create_task(t.loop, after(2000ms, 2, &log));
  Future<std::vector<int>> all = gather(t.loop, a, b);
  Task<std::string> waiter = create_task(t.loop, awaits_gather(all, &log));
  t.turn();
  EXPECT_TRUE(all.cancel("stop all"));
  EXPECT_FALSE(all.done());  // it waits for the children to finish cancelling
  EXPECT_EQ(a.cancelling(), 1);
  EXPECT_EQ(b.cancelling(), 1);
  t.turn();  // the children's steps: CancelledError in their sleeps
  EXPECT_TRUE(a.cancelled());
  EXPECT_TRUE(b.cancelled());
  EXPECT_FALSE(all.done());
  t.turn();  // gather's callbacks: the last one ends the outer
  ASSERT_TRUE(all.done());
  EXPECT_FALSE(all.cancelled());  // FINISHED with a CancelledError, as in asyncio
  EXPECT_EQ(testing::cancelled_message_of([&] { all.result(); }), "stop all");
  t.turn();  // the waiter wakes up
  EXPECT_TRUE(waiter.cancelled());
  EXPECT_EQ(log, Log{"awaiting task got CancelledError(stop all)"});
  EXPECT_DOUBLE_EQ(t.now(), 0.0);
}

TEST(Gather, CancellingTheTaskThatAwaitsTheGatherCancelsTheChildren) {
  TestLoop t;
  Log log;
  Task<int> a = create_task(t.loop, after(1000ms, 1, &log));
  Task<int> b = create_task(t.loop, after(2000ms, 2, &log));
  Future<std::vector<int>> all = gather(t.loop, a, b);
  Task<std::string> waiter = create_task(t.loop, awaits_gather(all, &log));
  t.turn();
  EXPECT_TRUE(waiter.cancel("from above"));
  EXPECT_EQ(t.turns_until_done(waiter), 3);  // children; gather's callbacks; the wakeup
  EXPECT_TRUE(a.cancelled());
  EXPECT_TRUE(b.cancelled());
  EXPECT_TRUE(waiter.cancelled());
  EXPECT_FALSE(all.cancelled());  // FINISHED with CancelledError, not CANCELLED
  EXPECT_EQ(log, Log{"awaiting task got CancelledError(from above)"});
  EXPECT_DOUBLE_EQ(t.now(), 0.0);
}

TEST(GatherReturnExceptions, CancellingTheOuterStillEndsItWithCancelledError) {
  TestLoop t;
  Log log;
  Task<int> a = create_task(t.loop, after(1000ms, 1, &log));
  Future<std::vector<Outcome<int>>> all = gather_return_exceptions(t.loop, a);
  t.turn();
  EXPECT_TRUE(all.cancel());
  EXPECT_EQ(t.turns_until_done(all), 2);  // the child's step; gather's callback
  EXPECT_TRUE(a.cancelled());
  EXPECT_EQ(testing::cancelled_message_of([&] { all.result(); }), "");
}

// asyncio's gather reads every child's outcome before it looks at the
// cancellation: a child that failed was retrieved, and is not reported.
TEST(GatherReturnExceptions, ACancelledOuterStillRetrievesTheChildrensErrors) {
  TestLoop t;
  {
    Future<int> pending(t.loop);
    Future<int> failed(t.loop);
    Future<std::vector<Outcome<int>>> all = gather_return_exceptions(t.loop, pending, failed);
    failed.set_exception(std::make_exception_ptr(ValueError("failed")));
    t.turn();
    EXPECT_TRUE(all.cancel());  // cancels `pending` only: `failed` is done
    t.turns(2);
    ASSERT_TRUE(all.done());
    EXPECT_EQ(testing::cancelled_message_of([&] { all.result(); }), "");
  }
  EXPECT_TRUE(t.reports.empty());
}

TEST(Gather, CancellingAnOuterWhoseChildrenAreAllDoneReturnsFalse) {
  TestLoop t;
  Future<int> a = t.loop.create_future<int>();
  Future<std::vector<int>> all = gather(t.loop, a);
  a.set_result(1);
  EXPECT_FALSE(all.cancel());  // nothing accepted the cancellation
  t.turn();
  EXPECT_EQ(all.result(), std::vector<int>{1});
}

TEST(Gather, AGatherOfTasksAwaitedInATaskCostsTheUsualTurns) {
  // Children finish in turn 2 (their first step); gather's callbacks run in
  // turn 3 and complete the outer; the awaiting task wakes in turn 4.
  TestLoop t;
  auto child = [](int v) -> Coro<int> { co_return v; };
  auto body = [](EventLoop* loop, decltype(child) make) -> Coro<int> {
    Task<int> a = create_task(*loop, make(1));
    Task<int> b = create_task(*loop, make(2));
    std::vector<int> values = co_await gather(*loop, a, b);
    co_return values[0] + values[1];
  };
  Task<int> task = create_task(t.loop, body, &t.loop, child);
  EXPECT_EQ(t.turns_until_done(task), 4);
  EXPECT_EQ(task.result(), 3);
}

TEST(Gather, AGatherOfTasksStillPendingWhenTheLoopClosesLeaksNothing) {
  // The children hold gather's callback, which holds the children: a cycle
  // that only completion breaks, or, for tasks, closing the loop, which
  // drops the callbacks of the tasks it destroys. (The leak checker of the
  // ASan build fails the test binary if anything is left.)
  // LeakSanitizer scans memory conservatively and can miss a cycle, so the
  // test also watches a token held by a callback of the gather's future:
  // it is freed only if that future is.
  TestLoop t;
  Log log;
  std::weak_ptr<int> token_alive;
  {
    Task<int> a = create_task(t.loop, after(1000ms, 1, &log));
    Task<int> b = create_task(t.loop, after(2000ms, 2, &log));
    Future<std::vector<int>> all = gather(t.loop, a, b);
    auto token = std::make_shared<int>(0);
    token_alive = token;
    all.add_done_callback([token](Future<std::vector<int>>&) {});
    auto waiter = [](Future<std::vector<int>> f) -> Coro<std::size_t> {
      std::vector<int> values = co_await f;
      co_return values.size();
    };
    Task<std::size_t> w = create_task(t.loop, waiter, all);
    t.turn();
  }
  t.loop.close();
  EXPECT_EQ(t.reports.size(), 3u);  // "Task was destroyed but it is pending!" three times
  EXPECT_TRUE(token_alive.expired()) << "the gather's future and its children leaked";
}

}  // namespace
}  // namespace looplab

namespace looplab {
namespace {

// close() drops the pending children's callbacks; the outer future, kept by
// its owner, must still be safe to cancel afterwards (it holds its children).
TEST(Gather, AnOuterFutureKeptAcrossCloseCanStillBeCancelled) {
  testing::TestLoop t;
  testing::Log log;
  t.loop.set_exception_handler([](EventLoop&, const ExceptionContext&) {});
  Task<int> child = create_task(t.loop, after(1000ms, 1, &log));
  Future<std::vector<int>> all = gather(t.loop, child);
  t.loop.close();  // the child is destroyed pending
  EXPECT_FALSE(all.done());
  all.cancel();  // reaches the (abandoned, still pending) child through a held reference
  EXPECT_FALSE(all.done());  // its children will never finish: nor will it
}

}  // namespace
}  // namespace looplab
