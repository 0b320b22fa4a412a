// An example of an instructor's hidden tests for assignment 08 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// What the public tests leave out: the block's wait for its children, once
// the body has returned, cancelled by the group itself (a child fails) and
// then taken back, or cancelled from outside more than once while a child
// takes its time to clean up; a SystemExit from the body itself; and a
// nested group that split_if() takes whole.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "task_group/support.hpp"

namespace looplab {
namespace {

using testing::described;
using testing::Log;
using testing::TestLoop;
using testing::worker;

// The body returns at once: whatever happens next happens while exit()
// waits for the children.
Coro<int> start_two(TaskGroup* group, Log* log, int a_work, bool a_fails) {
  group->create_task(worker(log, "a", a_work, a_fails));
  group->create_task(worker(log, "b", 5, false));
  co_return 7;
}

Coro<std::string> fails_while_waiting(Log* log) {
  try {
    co_await task_group(start_two, log, 1, true);
  } catch (const ExceptionGroup& group) {
    log->push_back("caught " + described(group).front());
  }
  co_await sleep(std::chrono::seconds(1));  // the group took its cancellation back
  co_return "later await ran; cancelling() = " + std::to_string(TaskBase::current()->cancelling());
}

TEST(HiddenExample, AChildThatFailsWhileTheBlockWaitsCancelsItsSiblingsAndNotTheParent) {
  TestLoop t;
  Log log;
  Task<std::string> main = create_task(t.loop, fails_while_waiting(&log));
  t.run_until_done(main);
  EXPECT_EQ(main.result(), "later await ran; cancelling() = 0");
  EXPECT_EQ(log, (Log{"a fails", "b cancelled", "caught ValueError: a"}));
  EXPECT_DOUBLE_EQ(t.now(), 2.0);
}

Coro<void> body_exits(TaskGroup* group, Log* log) {
  group->create_task(worker(log, "a", 5, false));
  group->create_task(worker(log, "b", 5, false));
  co_await sleep(std::chrono::seconds(1));
  throw SystemExit(3);
}

TEST(HiddenExample, TheBodysSystemExitWaitsForTheCancelledChildrenAndLeavesAsItself) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(body_exits, &log));
  EXPECT_THROW(t.run_until_done(main), SystemExit);  // from the parent's step, not a group
  ASSERT_TRUE(main.done());
  EXPECT_THROW(main.result(), SystemExit);
  EXPECT_EQ(log, (Log{"a cancelled", "b cancelled"}));  // before it left
  EXPECT_DOUBLE_EQ(t.now(), 1.0);
}

// A child that needs two seconds to clean up once it is cancelled, and then
// returns (it swallowed the cancellation: no error).
Coro<void> slow_to_stop(Log* log) {
  try {
    co_await sleep(std::chrono::seconds(10));
  } catch (const CancelledError&) {
    log->push_back("cleaning up");
  }
  co_await sleep(std::chrono::seconds(2));
  log->push_back("cleaned up");
}

Coro<void> start_slow(TaskGroup* group, Log* log) {
  group->create_task(slow_to_stop(log));
  co_return;
}

TEST(HiddenExample, TheBlockWaitsForEveryChildHoweverOftenTheParentIsCancelled) {
  TestLoop t;
  Log log;
  Task<void> main = create_task(t.loop, task_group(start_slow, &log));
  t.loop.call_later(std::chrono::seconds(1), [main] { main.cancel(); });
  t.loop.call_later(std::chrono::seconds(2), [main] { main.cancel(); });
  t.run_until_done(main);
  EXPECT_TRUE(main.cancelled());
  EXPECT_EQ(log, (Log{"cleaning up", "cleaned up"}));
  EXPECT_DOUBLE_EQ(t.now(), 3.0);  // not 1 nor 2: the group outlives its children
  EXPECT_EQ(main.base().cancelling(), 2);
}

TEST(HiddenExample, ANestedGroupThatMatchesGoesWholeIntoTheFirstHalf) {
  ExceptionGroup inner(
      "inner", {std::make_exception_ptr(ValueError("a")), std::make_exception_ptr(TypeError("b"))});
  ExceptionGroup outer("outer",
                       {std::make_exception_ptr(TypeError("c")), std::make_exception_ptr(inner),
                        std::make_exception_ptr(ValueError("d"))});
  auto is_inner = [](const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const ExceptionGroup& group) {
      return group.message() == "inner";
    } catch (...) {
      return false;
    }
  };
  auto [matched, rest] = outer.split_if(is_inner);
  ASSERT_TRUE(matched && rest);
  EXPECT_EQ(matched->message(), "outer");
  ASSERT_EQ(matched->exceptions().size(), 1U);
  try {
    std::rethrow_exception(matched->exceptions()[0]);
  } catch (const ExceptionGroup& whole) {
    EXPECT_EQ(described(whole), (std::vector<std::string>{"ValueError: a", "TypeError: b"}));
  }
  EXPECT_EQ(described(*rest), (std::vector<std::string>{"TypeError: c", "ValueError: d"}));
}

}  // namespace
}  // namespace looplab
