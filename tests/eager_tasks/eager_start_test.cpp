// Eager start (asyncio-semantics.md 7.1, 7.2): with eager_start and a
// running loop, a task's first step runs inside create_task(); a task that
// finishes there is done before create_task() returns and never reaches
// the loop; one that waits goes on as a lazy task.
#include <gtest/gtest.h>

#include <algorithm>
#include <coroutine>

#include "eager_tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::inside_running_loop;
using testing::Log;
using testing::step_logger;
using testing::TestLoop;

const TaskOptions kEager{.eager_start = true};

TEST(EagerStart, TheFirstStepRunsInsideCreateTask) {
  TestLoop t;
  Log log;
  inside_running_loop(t, [&] {
    log.push_back("before");
    Task<int> task = create_task(t.loop, step_logger(&log, "child", false, 1), kEager);
    log.push_back("after");
  });
  EXPECT_EQ(log, (Log{"before", "child starts", "after"}));
}

TEST(EagerStart, ALazyTaskRunsOnlyInALaterTurn) {
  TestLoop t;
  Log log;
  inside_running_loop(t, [&] {
    log.push_back("before");
    (void)create_task(t.loop, step_logger(&log, "child", false, 1));
    log.push_back("after");
  });
  EXPECT_EQ(log, (Log{"before", "after"}));
  t.turn();
  EXPECT_EQ(log, (Log{"before", "after", "child starts"}));
}

TEST(EagerStart, ATaskThatNeverWaitsIsDoneWhenCreateTaskReturns) {
  TestLoop t;
  Log log;
  std::optional<Task<int>> task;
  inside_running_loop(t, [&] {
    task = create_task(t.loop, step_logger(&log, "child", false, 42), kEager);
    EXPECT_TRUE(task->done());
    EXPECT_EQ(task->result(), 42);
  });
  // Nothing of it was queued: a queued step would find the task done and
  // report InvalidStateError.
  t.turns(2);
  EXPECT_EQ(log, (Log{"child starts"}));
  EXPECT_TRUE(t.reports.empty());
}

TEST(EagerStart, ATaskThatWaitsGoesOnLazily) {
  TestLoop t;
  Log log;
  std::optional<Task<int>> task;
  inside_running_loop(t, [&] {
    task = create_task(t.loop, step_logger(&log, "child", true, 7), kEager);
    EXPECT_FALSE(task->done());
  });
  EXPECT_EQ(log, (Log{"child starts"}));
  EXPECT_EQ(t.turns_until_done(*task), 1);  // sleep(0) is one turn, as for any task
  EXPECT_EQ(log, (Log{"child starts", "child resumes"}));
  EXPECT_EQ(task->result(), 7);
}

TEST(EagerStart, DoneCallbacksOfAnEagerlyFinishedTaskRunInALaterTurn) {
  TestLoop t;
  Log log;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, step_logger(&log, "child", false, 1), kEager);
    task.add_done_callback([&log](Future<int>&) { log.push_back("done callback"); });
    log.push_back("after create_task");
  });
  EXPECT_EQ(log, (Log{"child starts", "after create_task"}));  // never inline
  t.turn();
  EXPECT_EQ(log, (Log{"child starts", "after create_task", "done callback"}));
}

TEST(EagerStart, WithoutARunningLoopEagerFallsBackToLazy) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, step_logger(&log, "child", false, 1), kEager);
  EXPECT_TRUE(log.empty());
  EXPECT_FALSE(task.done());
  t.turn();
  EXPECT_EQ(log, (Log{"child starts"}));
  EXPECT_TRUE(task.done());
}

Coro<int> fails_at_once() {
  throw ValueError("boom");
  co_return 0;
}

TEST(EagerStart, AnExceptionInTheEagerStepIsStoredNotThrown) {
  TestLoop t;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, fails_at_once(), kEager);
    ASSERT_TRUE(task.done());
    EXPECT_EQ(testing::describe(task.exception()), "ValueError: boom");
  });
  EXPECT_TRUE(t.reports.empty());  // retrieved above
}

Coro<int> cancels_itself() {
  throw CancelledError("by itself");
  co_return 0;
}

TEST(EagerStart, ACancellationInTheEagerStepCancelsTheTask) {
  TestLoop t;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, cancels_itself(), kEager);
    ASSERT_TRUE(task.done());
    EXPECT_TRUE(task.cancelled());
    EXPECT_FALSE(task.cancel());  // done: cancel() is False
  });
}

Coro<int> exits() {
  throw SystemExit(3);
  co_return 0;
}

TEST(EagerStart, SystemExitEscapesCreateTaskAndTheLoopStaysUsable) {
  TestLoop t;
  bool escaped = false;
  inside_running_loop(t, [&] {
    try {
      (void)create_task(t.loop, exits(), kEager);
    } catch (const SystemExit& exit) {
      escaped = exit.code() == 3;
    }
    EXPECT_EQ(TaskBase::current(), nullptr);  // the creator is current again
  });
  EXPECT_TRUE(escaped);
  Log log;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, step_logger(&log, "next", false, 1), kEager);
    EXPECT_TRUE(task.done());
  });
  EXPECT_EQ(log, (Log{"next starts"}));
}

TEST(EagerStart, CancellingATaskSuspendedAfterItsEagerStepWorksAsForAnyTask) {
  TestLoop t;
  Log log;
  std::optional<Task<int>> task;
  inside_running_loop(t, [&] {
    task = create_task(t.loop, step_logger(&log, "child", true, 1), kEager);
    EXPECT_TRUE(task->cancel("stop"));
  });
  t.run_until_done(*task);
  EXPECT_TRUE(task->cancelled());
  EXPECT_EQ(log, (Log{"child starts"}));
}

struct Observed {
  TaskBase* during = nullptr;
  bool during_in_all_tasks = false;
  TaskBase* creator_after = reinterpret_cast<TaskBase*>(1);
};

Coro<int> observe(EventLoop* loop, Observed* seen) {
  seen->during = TaskBase::current();
  std::vector<TaskBase*> tasks = all_tasks(*loop);
  seen->during_in_all_tasks = std::find(tasks.begin(), tasks.end(), seen->during) != tasks.end();
  co_return 0;
}

TEST(EagerStart, TheNewTaskIsCurrentDuringItsStepAndThePlainCallbackAfter) {
  TestLoop t;
  Observed seen;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, observe(&t.loop, &seen), kEager);
    EXPECT_EQ(seen.during, &task.base());
    EXPECT_TRUE(seen.during_in_all_tasks);
    EXPECT_EQ(TaskBase::current(), nullptr);
    EXPECT_TRUE(all_tasks(t.loop).empty());  // finished eagerly: never registered
  });
}

Coro<void> creator(EventLoop* loop, Observed* seen, TaskBase** creator_itself) {
  *creator_itself = TaskBase::current();
  Task<int> child = create_task(*loop, observe(loop, seen), kEager);
  seen->creator_after = TaskBase::current();
  co_await child;  // done already: no suspension
}

TEST(EagerStart, TheCreatingTaskIsCurrentAgainAfterTheEagerStep) {
  TestLoop t;
  Observed seen;
  TaskBase* creator_itself = nullptr;
  Task<void> parent = create_task(t.loop, creator(&t.loop, &seen, &creator_itself));
  EXPECT_EQ(t.turns_until_done(parent), 1);  // awaiting a done child costs no turn
  EXPECT_NE(seen.during, creator_itself);
  EXPECT_EQ(seen.creator_after, creator_itself);
}

Coro<int> nested(Log* log, int depth) {
  log->push_back("enter " + std::to_string(depth));
  int below = 0;
  if (depth > 0) {
    Task<int> child = create_task(get_running_loop(), nested(log, depth - 1), kEager);
    below = co_await child;
  }
  log->push_back("leave " + std::to_string(depth));
  co_return below + 1;
}

TEST(EagerStart, EagerTasksNestInsideEachOthersSteps) {
  TestLoop t;
  Log log;
  inside_running_loop(t, [&] {
    Task<int> task = create_task(t.loop, nested(&log, 3), kEager);
    ASSERT_TRUE(task.done());
    EXPECT_EQ(task.result(), 4);
  });
  EXPECT_EQ(log, (Log{"enter 3", "enter 2", "enter 1", "enter 0", "leave 0", "leave 1", "leave 2",
                      "leave 3"}));
}

ContextVar<int> request_id("request_id", 0);

Coro<int> sets_the_variable() {
  int seen = request_id.get();
  request_id.set(99);
  co_return seen;
}

TEST(EagerStart, TheStepRunsInTheTasksOwnContext) {
  TestLoop t;
  inside_running_loop(t, [&] {
    request_id.set(5);
    Task<int> task = create_task(t.loop, sets_the_variable(), kEager);
    EXPECT_EQ(task.result(), 5);     // a copy of the creator's Context ...
    EXPECT_EQ(request_id.get(), 5);  // ... whose changes the creator never sees
    EXPECT_EQ(task.get_context().run([] { return request_id.get(); }), 99);
  });
}

TEST(EagerStart, GatherOfEagerlyFinishedChildrenIsDoneAtOnce) {
  TestLoop t;
  Log log;
  inside_running_loop(t, [&] {
    std::vector<Future<int>> children;
    for (int i = 0; i < 3; ++i) {
      children.push_back(
          create_task(t.loop, step_logger(&log, "c" + std::to_string(i), false, i), kEager));
    }
    Future<std::vector<int>> all = gather(t.loop, children);
    EXPECT_TRUE(all.done());
    EXPECT_EQ(all.result(), (std::vector<int>{0, 1, 2}));
  });
}

TEST(EagerStart, AnEagerTaskOnAClosedLoopIsRuntimeError) {
  TestLoop t;
  t.loop.close();
  Log log;
  EXPECT_EQ(testing::thrown_by(
                [&] { (void)create_task(t.loop, step_logger(&log, "child", false, 1), kEager); }),
            "RuntimeError: Event loop is closed");
  EXPECT_TRUE(log.empty());
}

Coro<int> bad_yield(Log* log) {
  try {
    co_await std::suspend_always{};  // nothing a task can wait for
  } catch (const RuntimeError& error) {
    log->push_back(error.what());
  }
  co_return 1;
}

TEST(EagerStart, ABadYieldInTheEagerStepIsThrownInByTheNextStep) {
  TestLoop t;
  Log log;
  std::optional<Task<int>> task;
  inside_running_loop(t, [&] {
    task = create_task(t.loop, bad_yield(&log), kEager);
    EXPECT_FALSE(task->done());               // it goes on lazily, as after any suspension
    EXPECT_EQ(all_tasks(t.loop).size(), 1U);  // all_tasks() sees it
  });
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(t.turns_until_done(*task), 1);
  ASSERT_EQ(log.size(), 1U);
  EXPECT_TRUE(log[0].starts_with("Task got bad yield: ")) << log[0];
  EXPECT_EQ(task->result(), 1);
}

}  // namespace
}  // namespace looplab
