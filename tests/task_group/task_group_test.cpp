// TaskGroup (asyncio-semantics.md 8): the block ends when every child has
// ended; the first failure cancels the body and the siblings; the errors
// come out together as an ExceptionGroup; cancelled children are not errors.
#include <gtest/gtest.h>

#include <optional>

#include "task_group/support.hpp"

namespace looplab {
namespace {

using testing::described;
using testing::Log;
using testing::TestLoop;
using testing::worker;

// ---- the block and its children ---------------------------------------

Coro<int> two_good_children(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 2, false));
  group->create_task(worker(log, "b", 1, false));
  log->push_back("body done");
  co_return 7;
}

Coro<int> run_two_good(Log* log) {
  int value = co_await task_group(two_good_children, log);
  log->push_back("after the block");
  co_return value;
}

TEST(TaskGroup, TheBlockEndsWhenEveryChildHasEnded) {
  TestLoop t;
  Log log;
  Task<int> main = create_task(t.loop, run_two_good(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), 7);  // what the body returned
  EXPECT_EQ(log, (Log{"body done", "b done", "a done", "after the block"}));
  EXPECT_DOUBLE_EQ(t.now(), 2.0);
}

Coro<void> one_fails(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 1, true));
  group->create_task(worker(log, "b", 2, false));
  group->create_task(worker(log, "c", 3, false));
  try {
    co_await sleep(std::chrono::seconds(10));
  } catch (const CancelledError&) {
    log->push_back("body cancelled");
    throw;
  }
}

Coro<std::string> catch_group(Log* log) {
  try {
    co_await task_group(one_fails, log);
  } catch (const ExceptionGroup& group) {
    EXPECT_EQ(described(group), (std::vector<std::string>{"ValueError: a"}));
    co_return group.what();
  }
  co_return "no error";
}

TEST(TaskGroup, TheFirstFailureCancelsTheBodyAndTheSiblings) {
  TestLoop t;
  Log log;
  Task<std::string> main = create_task(t.loop, catch_group(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), "unhandled errors in a TaskGroup (1 sub-exception)");
  EXPECT_EQ(log, (Log{"a fails", "b cancelled", "c cancelled", "body cancelled"}));
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
  EXPECT_EQ(main.base().cancelling(), 0);  // the group took its cancellation back
}

Coro<void> two_fail_together(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 1, true));
  group->create_task(worker(log, "b", 1, true));
  group->create_task(worker(log, "c", 2, false));
  co_return;
}

Coro<std::vector<std::string>> collect(Log* log) {
  try {
    co_await task_group(two_fail_together, log);
  } catch (const ExceptionGroup& group) {
    co_return described(group);
  }
  co_return std::vector<std::string>{};
}

TEST(TaskGroup, FailuresOfOneTurnAreAllCollectedInOrder) {
  TestLoop t;
  Log log;
  Task<std::vector<std::string>> main = create_task(t.loop, collect(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), (std::vector<std::string>{"ValueError: a", "ValueError: b"}));
}

Coro<void> a_child_is_cancelled(TaskGroup* group, Log* log) {
  Task<int> doomed = group->create_task(worker(log, "a", 5, false));
  group->create_task(worker(log, "b", 2, false));
  co_await sleep(std::chrono::seconds(1));
  doomed.cancel();
}

TEST(TaskGroup, ACancelledChildIsNotAnError) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(a_child_is_cancelled, &log));
  t.run_until_done(main);
  EXPECT_FALSE(main.exception());
  EXPECT_EQ(log, (Log{"a cancelled", "b done"}));
}

Coro<void> body_fails(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 1, true));
  group->create_task(worker(log, "b", 5, false));
  co_await sleep(std::chrono::seconds(0));
  throw TypeError("body");
}

TEST(TaskGroup, TheBodysErrorCancelsTheChildrenAndComesLast) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(body_fails, &log));
  t.run_until_done(main);
  try {
    std::rethrow_exception(main.exception());
  } catch (const ExceptionGroup& group) {
    // a was cancelled before it failed: only the body's error.
    EXPECT_EQ(described(group), (std::vector<std::string>{"TypeError: body"}));
  }
  EXPECT_EQ(log, (Log{"a cancelled", "b cancelled"}));
}

// ---- cancellation from outside ------------------------------------------

Coro<void> long_children(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 5, false));
  group->create_task(worker(log, "b", 5, false));
  co_await sleep(std::chrono::seconds(10));
}

TEST(TaskGroup, CancellingTheParentCancelsEveryChildAndPropagates) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(long_children, &log));
  t.loop.call_later(std::chrono::seconds(1), [main] { main.cancel("stop"); });
  t.run_until_done(main);
  EXPECT_TRUE(main.cancelled());
  EXPECT_EQ(log, (Log{"a cancelled", "b cancelled"}));
  EXPECT_EQ(main.base().cancelling(), 1);
}

Coro<int> fails_and_cancels(TaskBase* parent, Log* log) {
  co_await sleep(std::chrono::seconds(1));
  parent->cancel();
  log->push_back("a cancels the parent and fails");
  throw ValueError("a");
}

Coro<void> fails_while_cancelled(TaskGroup* group, Log* log) {
  group->create_task(fails_and_cancels(TaskBase::current(), log));
  co_await sleep(std::chrono::seconds(10));
}

Coro<std::string> group_then_sleep(Log* log) {
  try {
    co_await task_group(fails_while_cancelled, log);
  } catch (const ExceptionGroup&) {
    log->push_back("caught the group; cancelling() = " +
                   std::to_string(TaskBase::current()->cancelling()));
  }
  try {
    co_await sleep(std::chrono::seconds(1));
  } catch (const CancelledError&) {
    co_return "the next await is cancelled";
  }
  co_return "the next await ran";
}

TEST(TaskGroup, AnOutsideCancellationSurvivesAChildsError) {
  // 3.13: the group raises its ExceptionGroup, and the parent's pending
  // cancellation is delivered at its next await (3.12 lets that await run).
  TestLoop t;
  Log log;
  Task<std::string> main = create_task(t.loop, group_then_sleep(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), "the next await is cancelled");
  EXPECT_EQ(log, (Log{"a cancels the parent and fails", "caught the group; cancelling() = 1"}));
}

Coro<void> one_child_fails(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 1, true));
  co_await sleep(std::chrono::seconds(10));
}

Coro<void> group_that_handles_a_failure(Log* log) {
  try {
    co_await task_group(one_child_fails, log);
  } catch (const ExceptionGroup&) {
    log->push_back("handled");
  }
  co_await sleep(std::chrono::seconds(1));
  log->push_back("later await ran; cancelling() = " +
                 std::to_string(TaskBase::current()->cancelling()));
}

TEST(TaskGroup, AfterItsOwnFailureTheParentIsNotCancelled) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, group_that_handles_a_failure(&log));
  t.run_until_done(main);
  EXPECT_EQ(log, (Log{"a fails", "handled", "later await ran; cancelling() = 0"}));
}

Coro<void> slow_children(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 5, false));
  co_return;
}

Coro<std::string> group_under_timeout(Log* log) {
  try {
    co_await timeout(std::chrono::seconds(1), task_group(slow_children, log));
  } catch (const TimeoutError&) {
    co_return "TimeoutError";
  }
  co_return "no timeout";
}

TEST(TaskGroup, ATimeoutAroundAGroupCancelsItsChildrenAndBecomesTimeoutError) {
  TestLoop t;
  Log log;
  Task<std::string> main = create_task(t.loop, group_under_timeout(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), "TimeoutError");
  EXPECT_EQ(log, (Log{"a cancelled"}));
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
}

// ---- SystemExit, nesting, eager children ----------------------------------

Coro<int> exits(int delay) {
  co_await sleep(std::chrono::seconds(delay));
  throw SystemExit(2);
}

Coro<void> a_child_exits(TaskGroup* group, Log* log) {
  group->create_task(exits(1));
  group->create_task(worker(log, "b", 5, false));
  co_await sleep(std::chrono::seconds(10));
}

TEST(TaskGroup, SystemExitInAChildIsRaisedAsItself) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(a_child_exits, &log));
  // SystemExit leaves the loop from the child's step, as in asyncio; run
  // again, the group raises it, bare, and it leaves from the parent's step.
  EXPECT_THROW(t.run_until_done(main), SystemExit);
  EXPECT_FALSE(main.done());
  EXPECT_THROW(t.run_until_done(main), SystemExit);
  ASSERT_TRUE(main.done());
  EXPECT_THROW(main.result(), SystemExit);
  EXPECT_EQ(log, (Log{"b cancelled"}));
}

Coro<void> inner_fails(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "inner", 1, true));
  co_return;
}

Coro<void> outer_body(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "sibling", 5, false));
  co_await task_group(inner_fails, log);
}

TEST(TaskGroup, NestedGroupsNestTheirExceptionGroups) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(outer_body, &log));
  t.run_until_done(main);
  try {
    std::rethrow_exception(main.exception());
  } catch (const ExceptionGroup& outer) {
    ASSERT_EQ(outer.exceptions().size(), 1U);
    EXPECT_EQ(describe_exception(outer.exceptions()[0]),
              "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)");
    auto [values, rest] = outer.split<ValueError>();
    ASSERT_TRUE(values);
    EXPECT_FALSE(rest);
  }
  EXPECT_EQ(log, (Log{"inner fails", "sibling cancelled"}));
}

Coro<int> fails_at_once() {
  throw ValueError("eager");
  co_return 0;
}

Coro<void> eager_failure(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "b", 5, false));
  group->create_task(fails_at_once());  // fails inside create_task
  log->push_back(std::string("after create_task, cancelling() = ") +
                 std::to_string(TaskBase::current()->cancelling()));
  try {
    group->create_task(worker(log, "c", 1, false));
  } catch (const RuntimeError& error) {
    log->push_back(error.what());
  }
  co_await sleep(std::chrono::seconds(1));
}

TEST(TaskGroup, AnEagerChildThatFailsAbortsTheGroupInsideCreateTask) {
  TestLoop t;
  t.loop.set_task_factory(eager_task_factory);
  Log log;
  Task<void> main = create_task(t.loop, task_group(eager_failure, &log));
  t.run_until_done(main);
  EXPECT_EQ(log, (Log{"after create_task, cancelling() = 1",
                      "TaskGroup <TaskGroup tasks=1 errors=1 cancelling> is shutting down",
                      "b cancelled"}));
  EXPECT_TRUE(main.exception());
}

// ---- create_task's and enter()'s errors --------------------------------

TEST(TaskGroup, CreateTaskOnAGroupNeverEnteredIsRuntimeError) {
  TestLoop t;
  Log log;
  TaskGroup group;
  EXPECT_EQ(testing::thrown_by([&] { group.create_task(worker(&log, "x", 1, false)); }),
            "RuntimeError: TaskGroup <TaskGroup> has not been entered");
  t.turns(2);
  EXPECT_TRUE(log.empty());  // the coroutine never ran
}

TEST(TaskGroup, EnteringOutsideATaskIsRuntimeError) {
  TestLoop t;
  t.loop.call_soon([] {
    TaskGroup group;
    EXPECT_EQ(testing::thrown_by([&] { group.enter(); }),
              "RuntimeError: TaskGroup <TaskGroup> cannot determine the parent task");
  });
  t.turn();
  EXPECT_TRUE(t.reports.empty());
}

Coro<void> enter_twice(TaskGroup* group) {
  group->enter();
  co_return;
}

TEST(TaskGroup, EnteringTwiceIsRuntimeError) {
  TestLoop t;
  Task<void> main = create_task(t.loop, task_group(enter_twice));
  t.run_until_done(main);
  try {
    std::rethrow_exception(main.exception());
  } catch (const ExceptionGroup& group) {
    EXPECT_EQ(described(group),
              (std::vector<std::string>{"RuntimeError: TaskGroup <TaskGroup entered> has already "
                                        "been entered"}));
  }
}

Coro<void> create_in_done_callback(TaskGroup* group, Log* log) {
  Task<int> child = group->create_task(worker(log, "a", 1, false));
  child.add_done_callback([group, log](Future<int>&) {
    log->push_back(testing::thrown_by([&] { group->create_task(worker(log, "late", 1, false)); }));
  });
  co_return;
}

TEST(TaskGroup, CreateTaskOnAFinishedGroupIsRuntimeError) {
  // The child's done callback runs after the group's own (added first), in
  // the turn in which exit() sees no child left.
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(create_in_done_callback, &log));
  t.run_until_done(main);
  EXPECT_EQ(log, (Log{"a done", "RuntimeError: TaskGroup <TaskGroup entered> is finished"}));
}

}  // namespace
}  // namespace looplab
