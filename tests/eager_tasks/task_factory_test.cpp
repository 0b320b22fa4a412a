// Task factories (asyncio-semantics.md 7.1, 7.3): loop.set_task_factory(),
// get_task_factory(), eager_task_factory, create_eager_task_factory(), and
// the per-call eager_start= that overrides the factory (Python 3.14).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "eager_tasks/support.hpp"

namespace looplab {
namespace {

using testing::inside_running_loop;
using testing::Log;
using testing::step_logger;
using testing::TestLoop;

TEST(TaskFactory, TheDefaultIsEmptyAndCanBeSetAndReset) {
  TestLoop t;
  EXPECT_FALSE(t.loop.get_task_factory());  // asyncio's None
  t.loop.set_task_factory(eager_task_factory);
  EXPECT_TRUE(t.loop.get_task_factory());
  t.loop.set_task_factory(nullptr);
  EXPECT_FALSE(t.loop.get_task_factory());
}

TEST(TaskFactory, EagerTaskFactoryMakesEveryTaskEager) {
  TestLoop t;
  t.loop.set_task_factory(eager_task_factory);
  Log log;
  inside_running_loop(t, [&] {
    Task<int> first = create_task(t.loop, step_logger(&log, "first", false, 1));
    Task<int> second = create_task(t.loop, step_logger(&log, "second", false, 2));
    log.push_back("after both");
    EXPECT_TRUE(first.done() && second.done());
  });
  EXPECT_EQ(log, (Log{"first starts", "second starts", "after both"}));
}

TEST(TaskFactory, EagerStartFalseOverridesTheEagerFactory) {
  TestLoop t;
  t.loop.set_task_factory(eager_task_factory);
  Log log;
  inside_running_loop(t, [&] {
    Task<int> task =
        create_task(t.loop, step_logger(&log, "child", false, 1), {.eager_start = false});
    log.push_back("after");
    EXPECT_FALSE(task.done());
  });
  t.turn();
  EXPECT_EQ(log, (Log{"after", "child starts"}));
}

TEST(TaskFactory, ACustomFactorySeesEveryTaskAndTheCallersEagerStart) {
  TestLoop t;
  std::vector<std::optional<bool>> asked;
  t.loop.set_task_factory([&](EventLoop& loop, TaskBase& task, std::optional<bool> eager_start) {
    asked.push_back(eager_start);
    start_task(loop, task, eager_start);
  });
  Log log;
  inside_running_loop(t, [&] {
    (void)create_task(t.loop, step_logger(&log, "lazy", false, 1));
    (void)create_task(t.loop, step_logger(&log, "eager", false, 2), {.eager_start = true});
  });
  EXPECT_EQ(asked, (std::vector<std::optional<bool>>{std::nullopt, true}));
  t.turn();
  EXPECT_EQ(log, (Log{"eager starts", "lazy starts"}));  // the lazy one a turn later
}

TEST(TaskFactory, CreateEagerTaskFactoryWrapsACustomConstructor) {
  TestLoop t;
  std::vector<std::optional<bool>> asked;
  TaskFactory counting = [&](EventLoop& loop, TaskBase& task, std::optional<bool> eager_start) {
    asked.push_back(eager_start);
    start_task(loop, task, eager_start);
  };
  t.loop.set_task_factory(create_eager_task_factory(counting));
  Log log;
  inside_running_loop(t, [&] {
    (void)create_task(t.loop, step_logger(&log, "a", false, 1));
    (void)create_task(t.loop, step_logger(&log, "b", false, 2), {.eager_start = false});
  });
  EXPECT_EQ(asked, (std::vector<std::optional<bool>>{true, false}));
  EXPECT_EQ(log, (Log{"a starts"}));  // b, lazy, starts a turn later
  t.turn();
  EXPECT_EQ(log, (Log{"a starts", "b starts"}));
}

Coro<std::string> my_name() { co_return TaskBase::current()->get_name(); }

TEST(TaskFactory, WithAFactoryTheNameIsGivenAfterTheEagerStep) {
  // asyncio 3.12 and 3.13 call the factory without name= and call
  // set_name() once it returns: the eager step still sees "Task-N".
  TestLoop t;
  t.loop.set_task_factory(eager_task_factory);
  inside_running_loop(t, [&] {
    Task<std::string> task = create_task(t.loop, my_name(), {.name = "fetcher"});
    EXPECT_EQ(task.result().rfind("Task-", 0), 0U) << task.result();
    EXPECT_EQ(task.get_name(), "fetcher");
  });
}

TEST(TaskFactory, WithoutAFactoryAnEagerTaskHasItsNameFromTheStart) {
  TestLoop t;
  inside_running_loop(t, [&] {
    Task<std::string> task =
        create_task(t.loop, my_name(), {.name = "fetcher", .eager_start = true});
    EXPECT_EQ(task.result(), "fetcher");
  });
}

TEST(TaskFactory, AFactoryThatDoesNotStartTheTaskIsAnErrorAndTheLoopGoesOn) {
  TestLoop t;
  t.loop.set_task_factory([](EventLoop&, TaskBase&, std::optional<bool>) {});
  Log log;
  std::string error;
  inside_running_loop(t, [&] {
    error =
        testing::thrown_by([&] { (void)create_task(t.loop, step_logger(&log, "x", false, 1)); });
  });
  EXPECT_EQ(error.rfind("RuntimeError: the task factory did not start task Task-", 0), 0U) << error;
  EXPECT_TRUE(log.empty());
  t.loop.set_task_factory(nullptr);
  Task<int> task = create_task(t.loop, step_logger(&log, "y", false, 2));
  t.turn();
  EXPECT_EQ(task.result(), 2);
}

TEST(TaskFactory, StartingATaskTwiceIsAnError) {
  TestLoop t;
  t.loop.set_task_factory([](EventLoop&, TaskBase& task, std::optional<bool>) {
    task.start(false);
    task.start(false);
  });
  Log log;
  EXPECT_EQ(testing::thrown_by([&] {
              (void)create_task(t.loop, step_logger(&log, "x", false, 1));
            }).rfind("RuntimeError: start(): task Task-", 0),
            0U);
  t.turn();  // the one start() that happened ran the task once
  EXPECT_EQ(log, (Log{"x starts"}));
}

Coro<int> replaces_the_factory(EventLoop* loop) {
  loop->set_task_factory(nullptr);
  co_return 1;
}

TEST(TaskFactory, AFactoryReplacedDuringItsEagerStepLivesUntilItReturns) {
  // The eager step runs inside the factory: the factory that
  // set_task_factory() replaces there must not be destroyed under it
  // (AddressSanitizer would see its capture read after free).
  TestLoop t;
  auto label = std::make_shared<std::string>("factory");
  Log log;
  t.loop.set_task_factory(
      [label, &log](EventLoop& loop, TaskBase& task, std::optional<bool> eager_start) {
        eager_task_factory(loop, task, eager_start);
        log.push_back(*label + " returns");
      });
  label.reset();  // the factory's capture is its only owner
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, replaces_the_factory(&t.loop));
    EXPECT_TRUE(task.done());
  });
  EXPECT_EQ(log, Log{"factory returns"});
  EXPECT_FALSE(t.loop.get_task_factory());
}

TEST(TaskFactory, AStatefulFactoryIsTheOneObjectCalledEachTime) {
  // asyncio calls the factory it was given, not a copy: its state persists.
  TestLoop t;
  Log log;
  t.loop.set_task_factory(
      [calls = 0, &log](EventLoop& loop, TaskBase& task, std::optional<bool> eager_start) mutable {
        log.push_back("call " + std::to_string(++calls));
        start_task(loop, task, eager_start);
      });
  (void)create_task(t.loop, step_logger(&log, "a", false, 1));
  (void)create_task(t.loop, step_logger(&log, "b", false, 2));
  EXPECT_EQ(log, (Log{"call 1", "call 2"}));
  t.turn();
}

TEST(TaskFactory, ACreateTaskOnAClosedLoopNeverCallsTheFactory) {
  TestLoop t;
  int calls = 0;
  t.loop.set_task_factory([&](EventLoop& loop, TaskBase& task, std::optional<bool> eager_start) {
    ++calls;
    start_task(loop, task, eager_start);
  });
  t.loop.close();
  Log log;
  EXPECT_EQ(
      testing::thrown_by([&] { (void)create_task(t.loop, step_logger(&log, "x", false, 1)); }),
      "RuntimeError: Event loop is closed");
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace looplab
