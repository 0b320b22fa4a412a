// An example of an instructor's hidden tests for assignment 07 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// What the public tests leave out: an eager task that waits on a future and
// that nobody holds, cancelling one while it waits on a future, and the
// number a named task takes when a factory makes it.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "eager_tasks/support.hpp"

namespace looplab {
namespace {

using testing::inside_running_loop;
using testing::Log;
using testing::TestLoop;

constexpr TaskOptions kEager{.eager_start = true};

Coro<void> waiter(Future<int> future, Log* log) {
  log->push_back("waiter starts");
  int value = co_await future;
  log->push_back("waiter got " + std::to_string(value));
}

TEST(HiddenExample, AnEagerTaskNobodyHoldsThatWaitsOnAFutureStillFinishes) {
  TestLoop t;
  Log log;
  Future<int> future(t.loop);
  inside_running_loop(t, [&] {
    (void)create_task(t.loop, waiter(future, &log), kEager);  // the handle is dropped at once
    EXPECT_EQ(log, (Log{"waiter starts"}));
  });
  EXPECT_EQ(all_tasks(t.loop).size(), 1U);  // pending, and alive: it holds itself
  future.set_result(5);
  t.turn();  // the wakeup, one turn after the future is done
  EXPECT_EQ(log, (Log{"waiter starts", "waiter got 5"}));
  EXPECT_TRUE(all_tasks(t.loop).empty());
  EXPECT_TRUE(t.reports.empty());
}

TEST(HiddenExample, CancellingAnEagerTaskThatWaitsOnAFutureCancelsThatFuture) {
  TestLoop t;
  Log log;
  Future<int> future(t.loop);
  std::optional<Task<void>> task;
  inside_running_loop(t, [&] {
    task = create_task(t.loop, waiter(future, &log), kEager);
    EXPECT_TRUE(task->cancel("stop"));
    EXPECT_TRUE(future.cancelled());  // what it waits for, at once, as asyncio's Task.cancel()
  });
  ASSERT_TRUE(task.has_value()) << (t.reports.empty() ? "" : t.reports.front());
  t.run_until_done(*task);
  EXPECT_TRUE(task->cancelled());
  EXPECT_EQ(log, (Log{"waiter starts"}));
}

Coro<std::string> my_name() { co_return TaskBase::current()->get_name(); }

int number_of(const std::string& name) {
  EXPECT_EQ(name.rfind("Task-", 0), 0U) << name;
  return std::stoi(name.substr(5));
}

TEST(HiddenExample, ThroughAFactoryANamedTaskStillTakesANumberAndItsLazyStepSeesItsName) {
  TestLoop t;
  // Without a factory, only an unnamed task takes a number.
  int first = number_of(create_task(t.loop, my_name()).get_name());
  (void)create_task(t.loop, my_name(), {.name = "plain"});
  EXPECT_EQ(number_of(create_task(t.loop, my_name()).get_name()), first + 1);
  t.turn();
  // asyncio 3.12 calls the factory without the name: the task takes a number
  // first, and is renamed when the factory returns, before a lazy first step.
  t.loop.set_task_factory(start_task);
  Task<std::string> named = create_task(t.loop, my_name(), {.name = "named"});
  EXPECT_EQ(named.get_name(), "named");
  EXPECT_EQ(number_of(create_task(t.loop, my_name()).get_name()), first + 3);
  t.turn();
  EXPECT_EQ(named.result(), "named");
}

}  // namespace
}  // namespace looplab
