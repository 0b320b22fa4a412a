// Exceptions move through co_await as they move through await in Python: a
// coroutine's exception is thrown in the frame that awaits it, a future's
// in the task that awaits it, and an exception nobody catches ends the task
// (Task.__step: set_exception). The exception object travels as a
// std::exception_ptr and is never copied on the way.
#include <gtest/gtest.h>

#include <exception>
#include <string>
#include <vector>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> thrower(std::string message) {
  throw ValueError(message);
  co_return 0;  // never reached; makes this a coroutine
}

Coro<int> passes_through(std::string message, Log* log) {
  int value = co_await thrower(std::move(message));
  log->push_back("not reached");
  co_return value;
}

Coro<std::string> catches(Log* log) {
  try {
    co_await passes_through("deep", log);
  } catch (const ValueError& error) {
    co_return std::string("caught ") + error.what();
  }
  co_return "nothing thrown";
}

TEST(Exceptions, AnExceptionTravelsUpThroughAwaitedCoroutines) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, catches(&log));
  EXPECT_EQ(t.loop.run_until_complete(task), "caught deep");
  EXPECT_TRUE(log.empty());
}

TEST(Exceptions, AnUncaughtExceptionEndsTheTaskWithIt) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, passes_through("out of the task", &log));
  t.turn();
  ASSERT_TRUE(task.done());
  EXPECT_FALSE(task.cancelled());
  EXPECT_EQ(testing::describe(task.exception()), "ValueError: out of the task");
  EXPECT_EQ(testing::thrown_by([&] { task.result(); }), "ValueError: out of the task");
  EXPECT_TRUE(t.reports.empty());  // the loop itself saw nothing: the task holds it
}

TEST(Exceptions, RunUntilCompleteRethrowsTheTasksException) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, passes_through("to the caller", &log));
  EXPECT_EQ(testing::thrown_by([&] { t.loop.run_until_complete(task); }),
            "ValueError: to the caller");
}

Coro<void> fails_later() {
  co_await sleep(0s);
  co_await sleep(1s);
  throw LookupError("late");
}

Coro<std::string> awaits_a_failing_task(EventLoop* loop) {
  Task<void> failing = create_task(*loop, fails_later());
  try {
    co_await failing;
  } catch (const LookupError& error) {
    co_return std::string("caught from the other task: ") + error.what();
  }
  co_return "nothing";
}

TEST(Exceptions, AwaitingAFailedTaskThrowsItsExceptionInTheAwaitingTask) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, awaits_a_failing_task(&t.loop));
  EXPECT_EQ(t.loop.run_until_complete(task), "caught from the other task: late");
}

Coro<void> rethrows_what_it_awaits(Future<int> future, std::exception_ptr* seen) {
  try {
    co_await future;
  } catch (...) {
    *seen = std::current_exception();
    throw;
  }
}

TEST(Exceptions, TheExceptionObjectIsTheSameOneAllTheWay) {
  TestLoop t;
  Future<int> future = t.loop.create_future<int>();
  std::exception_ptr seen;
  Task<void> task = create_task(t.loop, rethrows_what_it_awaits(future, &seen));
  t.turn();
  std::exception_ptr original = std::make_exception_ptr(ValueError("one object"));
  future.set_exception(original);
  t.turns(2);
  ASSERT_TRUE(task.done());
  // exception_ptr compares the objects: no copy was made in the awaiter,
  // the coroutine, or the task.
  EXPECT_EQ(seen, original);
  EXPECT_EQ(task.exception(), original);
}

TEST(Exceptions, AnythingThrownIsCarriedEvenIfItIsNotAStdException) {
  TestLoop t;
  auto body = []() -> Coro<int> {
    co_await sleep(0s);
    throw 42;
  };
  Task<int> task = create_task(t.loop, body);
  t.turns(2);
  ASSERT_TRUE(task.done());
  try {
    task.result();
    FAIL() << "no exception";
  } catch (int thrown) {
    EXPECT_EQ(thrown, 42);
  }
}

TEST(Exceptions, AnExceptionCaughtInsideTheTaskLetsItGoOn) {
  TestLoop t;
  auto body = []() -> Coro<int> {
    int caught = 0;
    for (int i = 0; i < 3; ++i) {
      try {
        co_await thrower("again");
      } catch (const ValueError&) {
        ++caught;
      }
      co_await sleep(0s);
    }
    co_return caught;
  };
  EXPECT_EQ(t.loop.run_until_complete(create_task(t.loop, body)), 3);
}

// [never retrieved] Future.__del__ / Task.__del__: an exception nobody
// looked at is reported when the object goes.
TEST(Exceptions, ATaskExceptionNeverRetrievedIsReportedWhenTheTaskGoes) {
  TestLoop t;
  Log log;
  {
    Task<int> task = create_task(t.loop, passes_through("nobody looks", &log));
    t.turn();
    ASSERT_TRUE(task.done());
    EXPECT_TRUE(t.reports.empty());  // not while someone holds it
  }
  EXPECT_EQ(t.reports, std::vector<std::string>{
                           "Task exception was never retrieved | ValueError: nobody looks"});
}

TEST(Exceptions, AnUnheldTaskThatFailsIsReportedWhenItFinishes) {
  TestLoop t;
  Log log;
  (void)create_task(t.loop, passes_through("fire and forget", &log));
  t.turn();
  EXPECT_EQ(t.reports, std::vector<std::string>{
                           "Task exception was never retrieved | ValueError: fire and forget"});
}

TEST(Exceptions, ARetrievedTaskExceptionIsNotReported) {
  TestLoop t;
  Log log;
  {
    Task<int> awaited = create_task(t.loop, passes_through("awaited", &log));
    Task<int> asked = create_task(t.loop, passes_through("asked", &log));
    auto waiter = [](Task<int> other) -> Coro<void> {
      try {
        co_await other;
      } catch (const ValueError&) {
      }
    };
    Task<void> w = create_task(t.loop, waiter, awaited);
    t.turns(3);
    ASSERT_TRUE(asked.done());
    (void)asked.exception();
  }
  EXPECT_TRUE(t.reports.empty());
}

TEST(Exceptions, ACancelledTaskIsNeverReported) {
  TestLoop t;
  Log log;
  {
    Task<int> task = create_task(t.loop, passes_through("cancelled first", &log));
    task.cancel();
    t.turn();
    EXPECT_TRUE(task.cancelled());
  }
  EXPECT_TRUE(t.reports.empty());
}

TEST(Exceptions, AFailedTaskThatWasAskedToCancelTooLateIsNotReported) {
  // Task.cancel() clears _log_traceback even when it returns False.
  TestLoop t;
  Log log;
  {
    Task<int> task = create_task(t.loop, passes_through("failed", &log));
    t.turn();
    EXPECT_FALSE(task.cancel());
  }
  EXPECT_TRUE(t.reports.empty());
}

Coro<int> swallows_the_cancellation_then_fails() {
  bool cancelled = false;
  try {
    co_await sleep(1s);
  } catch (const CancelledError&) {
    cancelled = true;
  }
  throw ValueError(cancelled ? "failed after a cancel" : "not cancelled");
}

TEST(Exceptions, ATaskThatFailsAfterSwallowingACancellationIsReported) {
  // cancel() silences the report, but the error set later is reported
  // again: asyncio's set_exception() sets _log_traceback.
  TestLoop t;
  {
    Task<int> task = create_task(t.loop, swallows_the_cancellation_then_fails());
    t.turn();
    EXPECT_TRUE(task.cancel());
    t.turn();
    EXPECT_TRUE(task.done());
  }
  EXPECT_EQ(t.reports,
            std::vector<std::string>{
                "Task exception was never retrieved | ValueError: failed after a cancel"});
}

TEST(Exceptions, SystemExitShowsItsCodeAsPythonDoes) {
  // repr(SystemExit(3)) is SystemExit(3), str() is "3"; sys.exit()'s has none.
  EXPECT_EQ(exception_repr(std::make_exception_ptr(SystemExit(3))), "SystemExit(3)");
  EXPECT_EQ(describe_exception(std::make_exception_ptr(SystemExit(3))), "SystemExit: 3");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(SystemExit())), "SystemExit()");
  EXPECT_EQ(describe_exception(std::make_exception_ptr(SystemExit())), "SystemExit");
  // sys.exit(0) gives a code, which shows, although the status is the same.
  EXPECT_EQ(exception_repr(std::make_exception_ptr(SystemExit(0))), "SystemExit(0)");
  EXPECT_EQ(describe_exception(std::make_exception_ptr(SystemExit(0))), "SystemExit: 0");
}

TEST(Exceptions, APlainFutureExceptionNeverRetrievedSaysFuture) {
  TestLoop t;
  {
    Future<int> future = t.loop.create_future<int>();
    future.set_exception(ValueError("plain"));
  }
  EXPECT_EQ(t.reports,
            std::vector<std::string>{"Future exception was never retrieved | ValueError: plain"});
}

// asyncio's Task.set_result() and Task.set_exception() raise RuntimeError: a
// task ends only when its coroutine does. The refusal changes nothing; the
// task runs on and ends with its own result.
Coro<int> sleeps_then_returns(EventLoop* loop) {
  co_await sleep(*loop, 1s);
  co_return 7;
}

TEST(Exceptions, ATaskCannotBeCompletedFromOutside) {
  TestLoop t;
  Task<int> task = create_task(t.loop, sleeps_then_returns(&t.loop));
  EXPECT_EQ(testing::thrown_by([&] { task.set_result(1); }),
            "RuntimeError: Task does not support set_result operation");
  EXPECT_EQ(testing::thrown_by([&] { task.set_exception(ValueError("outside")); }),
            "RuntimeError: Task does not support set_exception operation");
  Future<int> as_future = task;  // the same task, held as a plain Future
  EXPECT_EQ(testing::thrown_by([&] { as_future.set_result(1); }),
            "RuntimeError: Task does not support set_result operation");
  EXPECT_FALSE(task.done());
  t.run_until_done(task);
  EXPECT_EQ(task.result(), 7);
  EXPECT_EQ(testing::thrown_by([&] { task.set_result(1); }),
            "RuntimeError: Task does not support set_result operation");  // done or not
  t.loop.close();
  EXPECT_TRUE(t.reports.empty());  // no "destroyed but it is pending"
}

}  // namespace
}  // namespace looplab
