// timeout() and wait_for() (asyncio-semantics.md 6.5): an expired deadline
// cancels the task; the CancelledError the body ends with becomes a
// TimeoutError, but only in the scope that expired, and only if nobody else
// asked for a cancellation meanwhile (cancelling() decides).
#include "looplab/timeout.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> slow_body(std::chrono::milliseconds delay, Log* log) {
  try {
    co_await sleep(delay);
  } catch (const CancelledError&) {
    log->push_back("body cleans up at " +
                   std::to_string(testing::seconds(get_running_loop().time())));
    throw;
  }
  log->push_back("body finished");
  co_return 1;
}

Coro<std::string> under_timeout(std::chrono::milliseconds limit, std::chrono::milliseconds work,
                                Log* log) {
  try {
    int value = co_await timeout(limit, slow_body(work, log));
    co_return "value " + std::to_string(value);
  } catch (const TimeoutError&) {
    log->push_back("TimeoutError at " +
                   std::to_string(testing::seconds(get_running_loop().time())));
    co_return "timed out";
  }
}

TEST(Timeout, ExpiringRaisesTimeoutErrorAfterTheBodyCleanedUp) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, under_timeout(1000ms, 5000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "timed out");
  EXPECT_EQ(log, (Log{"body cleans up at 1.000000", "TimeoutError at 1.000000"}));
  EXPECT_EQ(task.cancelling(), 0);  // the timeout took its cancellation back
  EXPECT_FALSE(task.cancelled());
}

TEST(Timeout, ABodyThatFinishesInTimeReturnsItsValueAndLeavesNoTimer) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, under_timeout(5000ms, 1000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "value 1");
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
  EXPECT_EQ(log, Log{"body finished"});
  EXPECT_EQ(task.cancelling(), 0);
  // The deadline's timer was cancelled: it is in the heap only as a cancelled entry.
  EXPECT_EQ(t.loop.scheduled_count(), t.loop.timer_cancelled_count());
}

Coro<int> swallows(Log* log) {
  try {
    co_await sleep(10s);
  } catch (const CancelledError&) {
    log->push_back("swallowed the cancellation");
  }
  co_return 7;
}

TEST(Timeout, ABodyThatSwallowsTheCancellationReturnsItsValue) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<int> { co_return co_await timeout(1s, swallows(log)); };
  Task<int> task = create_task(t.loop, body, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), 7);
  EXPECT_EQ(log, Log{"swallowed the cancellation"});
  EXPECT_EQ(task.cancelling(), 0);
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
}

Coro<std::string> nested(std::chrono::milliseconds outer_limit,
                         std::chrono::milliseconds inner_limit, Log* log) {
  auto inner_scope = [](std::chrono::milliseconds limit, Log* log) -> Coro<int> {
    try {
      co_return co_await timeout(limit, slow_body(10000ms, log));
    } catch (const TimeoutError&) {
      log->push_back("inner scope converted");
      throw;
    } catch (const CancelledError&) {
      log->push_back("inner scope let CancelledError through");
      throw;
    }
  };
  try {
    co_await timeout(outer_limit, inner_scope(inner_limit, log));
    co_return "no timeout";
  } catch (const TimeoutError&) {
    co_return "TimeoutError";
  }
}

TEST(Timeout, NestedOnlyTheExpiredScopeConvertsTheOuterExpiring) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, nested(1000ms, 5000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "TimeoutError");
  EXPECT_EQ(log, (Log{"body cleans up at 1.000000", "inner scope let CancelledError through"}));
  EXPECT_EQ(task.cancelling(), 0);
}

TEST(Timeout, NestedOnlyTheExpiredScopeConvertsTheInnerExpiring) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, nested(5000ms, 1000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "TimeoutError");  // the inner's, passing through
  EXPECT_EQ(log, (Log{"body cleans up at 1.000000", "inner scope converted"}));
  EXPECT_EQ(task.cancelling(), 0);
}

TEST(Timeout, AnExternalCancellationPassesThroughAsCancelledError) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, under_timeout(5000ms, 10000ms, &log));
  t.loop.call_later(1s, [&] { task.cancel("from outside"); });
  EXPECT_EQ(testing::cancelled_message_of([&] { t.loop.run_until_complete(task); }),
            "from outside");
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(log, Log{"body cleans up at 1.000000"});
  EXPECT_EQ(task.cancelling(), 1);
}

TEST(Timeout, AnExternalCancellationInTheTurnTheDeadlinePassesIsNotConverted) {
  // Both requests are counted; uncancel() leaves 1 > 0 on entry: not ours alone.
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, under_timeout(1000ms, 10000ms, &log));
  t.loop.call_later(1s, [&] { task.cancel("also from outside"); });
  // The error thrown in is the sleep's, cancelled by the first request.
  EXPECT_EQ(testing::cancelled_message_of([&] { t.loop.run_until_complete(task); }),
            "also from outside");
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(task.cancelling(), 1);
  EXPECT_EQ(log, Log{"body cleans up at 1.000000"});
}

Coro<std::string> yields_then_returns(Log* log) {
  log->push_back("body starts");
  co_await sleep(0s);
  log->push_back("body after sleep(0)");
  co_return "finished";
}

TEST(Timeout, AZeroDelayExpiresInTheNextTurnBeforeTheBodyResumes) {
  // asyncio's reschedule(): a deadline already past is call_soon(_on_timeout),
  // queued ahead of the body's own step.
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<std::string> {
    try {
      co_return co_await timeout(0s, yields_then_returns(log));
    } catch (const TimeoutError&) {
      co_return "TimeoutError";
    }
  };
  Task<std::string> task = create_task(t.loop, body, &log);
  EXPECT_EQ(t.turns_until_done(task), 2);
  EXPECT_EQ(task.result(), "TimeoutError");
  EXPECT_EQ(log, Log{"body starts"});
}

TEST(Timeout, AScopeCanBeATasksWholeBody) {
  TestLoop t;
  Log log;
  Coro<int> scope = timeout(1s, slow_body(1ms, &log));  // nothing runs yet
  Task<int> task = create_task(t.loop, std::move(scope));
  EXPECT_EQ(t.loop.run_until_complete(task), 1);
}

// ---- wait_for -------------------------------------------------------------

Coro<std::string> wait_for_task(EventLoop* loop, std::chrono::milliseconds limit,
                                std::chrono::milliseconds work, Log* log) {
  Task<int> inner = create_task(*loop, slow_body(work, log));
  try {
    int value = co_await wait_for(Future<int>(inner), limit);
    co_return "value " + std::to_string(value);
  } catch (const TimeoutError&) {
    log->push_back(std::string("TimeoutError; inner ") +
                   (inner.cancelled() ? "cancelled" : "not cancelled"));
    co_return "timed out";
  }
}

TEST(WaitFor, OnTimeoutTheInnerIsCancelledAndAwaitedThenTimeoutError) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, wait_for_task(&t.loop, 1000ms, 5000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "timed out");
  EXPECT_EQ(log, (Log{"body cleans up at 1.000000", "TimeoutError; inner cancelled"}));
  EXPECT_EQ(task.cancelling(), 0);
}

TEST(WaitFor, SuccessReturnsTheValue) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, wait_for_task(&t.loop, 5000ms, 1000ms, &log));
  EXPECT_EQ(t.loop.run_until_complete(task), "value 1");
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
}

TEST(WaitFor, AnInnerThatSwallowsTheCancellationGivesItsValue) {
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<int> {
    Task<int> inner = create_task(*loop, swallows(log));
    co_return co_await wait_for(Future<int>(inner), 1s);
  };
  Task<int> task = create_task(t.loop, body, &t.loop, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), 7);
  EXPECT_EQ(log, Log{"swallowed the cancellation"});
}

TEST(WaitFor, ACoroutineRunsInlineUnderTheTimeout) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<std::string> {
    try {
      co_await wait_for(slow_body(5000ms, log), 1s);
    } catch (const TimeoutError&) {
      co_return "TimeoutError";
    }
    co_return "no timeout";
  };
  Task<std::string> task = create_task(t.loop, body, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), "TimeoutError");
  EXPECT_EQ(log, Log{"body cleans up at 1.000000"});
  EXPECT_EQ(all_tasks(t.loop).size(), 0u);
}

TEST(WaitFor, NoDelayWaitsAsLongAsItTakes) {
  // asyncio.wait_for(aw, None): no deadline at all.
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<int> {
    Task<int> inner = create_task(*loop, slow_body(5000ms, log));
    int first = co_await wait_for(Future<int>(inner), std::nullopt);
    std::optional<std::chrono::milliseconds> none;  // a program's `timeout=None`
    int second = co_await wait_for(slow_body(1000ms, log), none);
    co_return first + second;
  };
  Task<int> task = create_task(t.loop, body, &t.loop, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), 2);
  EXPECT_DOUBLE_EQ(t.now(), 6.0);
  EXPECT_EQ(log, (Log{"body finished", "body finished"}));
}

TEST(WaitFor, AnOptionalDelayThatHoldsOneIsADeadline) {
  TestLoop t;
  Log log;
  auto body = [](Log* log) -> Coro<std::string> {
    std::optional<std::chrono::milliseconds> limit = 1000ms;
    try {
      co_await wait_for(slow_body(5000ms, log), limit);
    } catch (const TimeoutError&) {
      co_return "TimeoutError";
    }
    co_return "no timeout";
  };
  Task<std::string> task = create_task(t.loop, body, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), "TimeoutError");
  EXPECT_EQ(log, Log{"body cleans up at 1.000000"});
}

TEST(WaitFor, NoDelayRunsACoroutineInlineNotAsATask) {
  TestLoop t;
  auto counts_tasks = [](EventLoop* loop) -> Coro<std::size_t> {
    co_await sleep(0s);
    co_return all_tasks(*loop).size();
  };
  auto body = [](EventLoop* loop, decltype(counts_tasks) make) -> Coro<std::size_t> {
    co_return co_await wait_for(make(loop), std::nullopt);
  };
  Task<std::size_t> task = create_task(t.loop, body, &t.loop, counts_tasks);
  EXPECT_EQ(t.loop.run_until_complete(task), 1u);  // the awaiting task alone
}

TEST(WaitFor, ZeroDelayOnADoneFutureReturnsItsResult) {
  TestLoop t;
  Future<int> done = t.loop.create_future<int>();
  done.set_result(4);
  auto body = [](Future<int> f) -> Coro<int> { co_return co_await wait_for(f, 0s); };
  Task<int> task = create_task(t.loop, body, done);
  EXPECT_EQ(t.turns_until_done(task), 1);
  EXPECT_EQ(task.result(), 4);
}

TEST(WaitFor, ZeroDelayCancelsAPendingFutureWaitsForItAndRaisesTimeoutError) {
  TestLoop t;
  Log log;
  Future<int> pending = t.loop.create_future<int>();
  auto body = [](Future<int> f) -> Coro<std::string> {
    try {
      co_await wait_for(f, 0s);
    } catch (const TimeoutError&) {
      co_return "TimeoutError";
    }
    co_return "no timeout";
  };
  Task<std::string> task = create_task(t.loop, body, pending);
  t.turn();
  EXPECT_TRUE(pending.cancelled());
  // turn 2: the future's callback releases the waiter; turn 3: the task wakes.
  EXPECT_EQ(t.turns_until_done(task), 2);
  EXPECT_EQ(task.result(), "TimeoutError");
}

TEST(WaitFor, ZeroDelayNeverStartsACoroutineButCostsTheTurnsOfCancellingItsTask) {
  // asyncio: ensure_future() makes it a task, which is cancelled before its
  // first step, then awaited: TimeoutError in the fourth turn.
  TestLoop t;
  Log log;
  auto never = [](Log* log) -> Coro<int> {
    log->push_back("started?!");
    co_return 1;
  };
  auto body = [](Log* log, decltype(never) make) -> Coro<std::string> {
    try {
      co_await wait_for(make(log), 0s);
    } catch (const TimeoutError&) {
      co_return "TimeoutError";
    }
    co_return "no timeout";
  };
  Task<std::string> task = create_task(t.loop, body, &log, never);
  EXPECT_EQ(t.turns_until_done(task), 4);
  EXPECT_EQ(task.result(), "TimeoutError");
  EXPECT_TRUE(log.empty());
}

TEST(WaitFor, ZeroDelayOnAFutureThatIgnoresTheCancelReturnsItsValue) {
  // The "cancel and wait" in wait_for(): a task that swallows the
  // cancellation and returns gives its value, not a TimeoutError.
  TestLoop t;
  Log log;
  auto body = [](EventLoop* loop, Log* log) -> Coro<int> {
    Task<int> inner = create_task(*loop, swallows(log));
    co_await sleep(0s);  // let it start and wait in its sleep
    co_return co_await wait_for(Future<int>(inner), 0s);
  };
  Task<int> task = create_task(t.loop, body, &t.loop, &log);
  EXPECT_EQ(t.loop.run_until_complete(task), 7);
  EXPECT_EQ(log, Log{"swallowed the cancellation"});
}

// The Timeout a body may ask for (asyncio.Timeout): when(), reschedule(),
// expired(), and timeout_at().
Coro<std::string> moves_its_deadline(Timeout& cm, EventLoop* loop) {
  std::string seen = std::to_string(testing::seconds(*cm.when()));
  cm.reschedule(loop->time() + 5s);  // later: the 1 s deadline no longer applies
  co_await sleep(2s);
  seen += cm.expired() ? " expired" : " running";
  cm.reschedule(std::nullopt);  // no deadline at all
  co_await sleep(10s);
  seen += cm.when() ? " has a deadline" : " no deadline";
  co_return seen;
}

TEST(Timeout, TheBodyCanReadAndMoveTheDeadline) {
  TestLoop t;
  auto main = [](EventLoop* loop) -> Coro<std::string> {
    co_return co_await timeout(1s, moves_its_deadline, loop);
  };
  Task<std::string> task = create_task(t.loop, main, &t.loop);
  t.run_until_done(task);
  EXPECT_EQ(task.result(), "1.000000 running no deadline");
  EXPECT_EQ(t.now(), 12.0);
}

TEST(Timeout, TimeoutAtTakesTheDeadlineAndAPastOneExpiresAtTheNextTurn) {
  TestLoop t;
  auto body = [](EventLoop* loop) -> Coro<std::string> {
    auto sleeper = [](Timeout&) -> Coro<void> { co_await sleep(5s); };
    try {
      co_await timeout_at(loop->time() - 1s, sleeper);
    } catch (const TimeoutError&) {
      co_return "TimeoutError at " + std::to_string(testing::seconds(loop->time()));
    }
    co_return "no error";
  };
  Task<std::string> task = create_task(t.loop, body, &t.loop);
  t.run_until_done(task);
  EXPECT_EQ(task.result(), "TimeoutError at 0.000000");
}

TEST(Timeout, ExpiredIsTrueOnceTheDeadlineFiredAndReschedulingIsThenAnError) {
  TestLoop t;
  auto body = [](Timeout& cm, Log* log) -> Coro<void> {
    try {
      co_await sleep(5s);
    } catch (const CancelledError&) {
      log->push_back(cm.expired() ? "expired" : "not expired");
      log->push_back(testing::thrown_by([&] { cm.reschedule(std::nullopt); }));
      throw;
    }
  };
  Log log;
  auto main = [](decltype(body) fn, Log* log) -> Coro<void> {
    try {
      co_await timeout(1s, fn, log);
    } catch (const TimeoutError&) {
      log->push_back("TimeoutError");
    }
  };
  Task<void> task = create_task(t.loop, main, body, &log);
  t.run_until_done(task);
  EXPECT_EQ(log, (Log{"expired", "RuntimeError: Cannot change state of expiring Timeout",
                      "TimeoutError"}));
}

TEST(Timeout, ReprShowsTheStateAndWhileActiveTheDeadline) {
  // timeouts.py's __repr__: when= in seconds rounded to 3 places, only
  // while the block runs.
  TestLoop t;
  auto body = [](Timeout& cm, Log* log, EventLoop* loop) -> Coro<void> {
    log->push_back(cm.repr());
    cm.reschedule(std::nullopt);
    log->push_back(cm.repr());
    cm.reschedule(loop->time() + 1234567us);
    log->push_back(cm.repr());
    cm.reschedule(loop->time() + 1234500us);  // round(1.2345, 3) is 1.234
    log->push_back(cm.repr());
    try {
      co_await sleep(5s);
    } catch (const CancelledError&) {
      log->push_back(cm.repr());
      throw;
    }
  };
  auto main = [](decltype(body) fn, Log* log, EventLoop* loop) -> Coro<void> {
    Timeout created(std::nullopt);
    log->push_back(created.repr());
    try {
      co_await timeout(1500ms, fn, log, loop);
    } catch (const TimeoutError&) {
    }
    Timeout manual(std::nullopt);
    manual.enter();
    (void)manual.exit(nullptr);
    log->push_back(manual.repr());
  };
  Log log;
  Task<void> task = create_task(t.loop, main, body, &log, &t.loop);
  t.run_until_done(task);
  EXPECT_EQ(log,
            (Log{"<Timeout [created]>", "<Timeout [active] when=1.5>",
                 "<Timeout [active] when=None>", "<Timeout [active] when=1.235>",
                 "<Timeout [active] when=1.234>", "<Timeout [expiring]>", "<Timeout [finished]>"}));
}

TEST(Timeout, ATimeoutOutsideATaskOrNotEnteredIsARuntimeError) {
  Timeout cm(std::nullopt);
  EXPECT_EQ(testing::thrown_by([&] { cm.reschedule(std::nullopt); }),
            "RuntimeError: Timeout has not been entered");
  TestLoop t;
  std::string seen;
  t.loop.call_soon([&] { seen = testing::thrown_by([&] { cm.enter(); }); });
  t.turn();
  EXPECT_EQ(seen, "RuntimeError: Timeout should be used inside a task");
}

}  // namespace
}  // namespace looplab
