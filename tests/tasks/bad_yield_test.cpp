// A task waits only for what it knows how to wait for: a Future, sleep(), a
// Coro (coro.hpp, TaskAware). Any other awaiter that would suspend, such as
// std::suspend_always, is asyncio's "bad yield" (Task.__step's last branch):
// one turn later the coroutine gets RuntimeError("Task got bad yield: ...")
// where it suspended. It may catch it and go on; the loop stays usable.
#include <gtest/gtest.h>

#include <coroutine>
#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

// Ready at once: never suspends, so the task never has to wait for it.
struct AlreadyThere {
  bool await_ready() const noexcept { return true; }
  void await_suspend(std::coroutine_handle<> /*frame*/) const noexcept {}
  int await_resume() const noexcept { return 7; }
};

// Would keep the frame and resume it itself: the task must never call it.
struct KeepsTheFrame {
  std::coroutine_handle<>* kept;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> frame) const noexcept { *kept = frame; }
  void await_resume() const noexcept {}
};

Coro<std::string> awaits_suspend_always(Log* log) {
  try {
    co_await std::suspend_always{};
    log->push_back("resumed without an error");
  } catch (const RuntimeError& error) {
    log->push_back(std::string("caught: ") + error.what());
  }
  int ready = co_await AlreadyThere{};
  co_await sleep(0s);
  co_return "went on, " + std::to_string(ready);
}

TEST(BadYield, TheNextStepThrowsRuntimeErrorWhereTheCoroutineSuspended) {
  TestLoop t;
  Log log;
  Task<std::string> task = create_task(t.loop, awaits_suspend_always(&log));
  t.turn();  // the first step: the bad yield; the error waits for the next
  EXPECT_TRUE(log.empty());
  EXPECT_FALSE(task.done());
  t.turn();  // thrown at the co_await
  // After the colon, the awaiter's type as the compiler names it
  // ("std::__n4861::suspend_always" for g++ 12's library).
  ASSERT_EQ(log.size(), 1U);
  EXPECT_TRUE(log[0].starts_with("caught: Task got bad yield: std::")) << log[0];
  EXPECT_TRUE(log[0].ends_with("suspend_always")) << log[0];
  t.turn();  // after sleep(0)
  ASSERT_TRUE(task.done());
  EXPECT_EQ(task.result(), "went on, 7");
  EXPECT_TRUE(t.reports.empty());
}

Coro<void> awaits_a_frame_keeper(std::coroutine_handle<>* kept) {
  KeepsTheFrame keeper{kept};
  co_await keeper;
}

TEST(BadYield, UncaughtItEndsTheTaskAndTheForeignAwaiterNeverSeesTheFrame) {
  TestLoop t;
  std::coroutine_handle<> kept;
  Task<void> task = create_task(t.loop, awaits_a_frame_keeper(&kept));
  t.turn();
  t.turn();
  ASSERT_TRUE(task.done());
  std::string error = testing::describe(task.exception());
  EXPECT_TRUE(error.starts_with("RuntimeError: Task got bad yield: ")) << error;
  EXPECT_TRUE(error.ends_with("KeepsTheFrame")) << error;
  EXPECT_FALSE(kept);
  // The loop goes on as before.
  Log log;
  Task<std::string> next = create_task(t.loop, awaits_suspend_always(&log));
  EXPECT_EQ(t.loop.run_until_complete(next), "went on, 7");
}

Coro<void> suspends_forever() { co_await std::suspend_always{}; }

Coro<std::string> awaits_a_child_that_yields_badly() {
  try {
    co_await suspends_forever();
  } catch (const RuntimeError& error) {
    co_return std::string("the parent caught: ") + error.what();
  }
  co_return "no error?!";
}

TEST(BadYield, InANestedCoroTheErrorComesOutOfTheChildIntoItsParent) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, awaits_a_child_that_yields_badly());
  std::string result = t.loop.run_until_complete(task);
  EXPECT_TRUE(result.starts_with("the parent caught: Task got bad yield: ")) << result;
}

TEST(BadYield, ACancelBeforeTheNextStepReplacesTheError) {
  TestLoop t;
  Task<void> task = create_task(t.loop, suspends_forever());
  t.turn();
  EXPECT_TRUE(task.cancel("stop"));
  t.turn();
  ASSERT_TRUE(task.cancelled());
  EXPECT_EQ(testing::cancelled_message_of([&] { task.result(); }), "stop");
}

}  // namespace
}  // namespace looplab
