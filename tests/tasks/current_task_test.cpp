// current_task() and all_tasks() (asyncio-semantics.md 6.4): the current task
// is set only while one of its steps runs; all_tasks(loop) are the loop's
// tasks that are not done, started or not.
#include <gtest/gtest.h>

#include <algorithm>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::TestLoop;

Coro<TaskBase*> who_am_i_deep() { co_return TaskBase::current(); }

struct Seen {
  TaskBase* first_step = nullptr;
  TaskBase* inner_coroutine = nullptr;
  TaskBase* after_yield = nullptr;
  TaskBase* in_plain_callback = reinterpret_cast<TaskBase*>(1);
};

Coro<void> observe(EventLoop* loop, Seen* seen) {
  seen->first_step = TaskBase::current();
  seen->inner_coroutine = co_await who_am_i_deep();
  loop->call_soon([seen] { seen->in_plain_callback = TaskBase::current(); });
  co_await sleep(0s);
  seen->after_yield = TaskBase::current();
}

TEST(CurrentTask, IsTheRunningTaskInsideItsStepsAndNullOutside) {
  TestLoop t;
  Seen seen;
  EXPECT_EQ(TaskBase::current(), nullptr);
  Task<void> task = create_task(t.loop, observe(&t.loop, &seen));
  EXPECT_EQ(TaskBase::current(), nullptr);
  t.loop.run_until_complete(task);
  EXPECT_EQ(seen.first_step, &task.base());
  EXPECT_EQ(seen.inner_coroutine, &task.base());  // an awaited coroutine runs in the task
  EXPECT_EQ(seen.after_yield, &task.base());
  EXPECT_EQ(seen.in_plain_callback, nullptr);  // a callback is not a task
  EXPECT_EQ(TaskBase::current(), nullptr);
}

TEST(CurrentTask, EachTaskSeesItself) {
  TestLoop t;
  Seen a_seen;
  Seen b_seen;
  Task<void> a = create_task(t.loop, observe(&t.loop, &a_seen));
  Task<void> b = create_task(t.loop, observe(&t.loop, &b_seen));
  t.loop.run_until_complete(b);
  EXPECT_EQ(a_seen.after_yield, &a.base());
  EXPECT_EQ(b_seen.after_yield, &b.base());
}

TEST(CurrentTask, ADoneCallbackOfATaskIsNotInsideTheTask) {
  TestLoop t;
  auto body = []() -> Coro<int> { co_return 1; };
  Task<int> task = create_task(t.loop, body);
  TaskBase* in_callback = reinterpret_cast<TaskBase*>(1);
  task.add_done_callback([&](Future<int>&) { in_callback = TaskBase::current(); });
  t.turns(2);
  EXPECT_EQ(in_callback, nullptr);
}

bool contains(const std::vector<TaskBase*>& tasks, TaskBase* task) {
  return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
}

TEST(AllTasks, HoldsTheTasksThatAreNotDoneStartedOrNot) {
  TestLoop t;
  EXPECT_TRUE(all_tasks(t.loop).empty());
  auto quick = []() -> Coro<int> { co_return 1; };
  auto slow = []() -> Coro<int> {
    co_await sleep(1s);
    co_return 2;
  };
  Task<int> a = create_task(t.loop, quick);
  Task<int> b = create_task(t.loop, slow);
  std::vector<TaskBase*> before = all_tasks(t.loop);
  EXPECT_EQ(before.size(), 2u);
  EXPECT_TRUE(contains(before, &a.base()));
  EXPECT_TRUE(contains(before, &b.base()));
  t.turn();
  std::vector<TaskBase*> after_one_turn = all_tasks(t.loop);
  EXPECT_EQ(after_one_turn, std::vector<TaskBase*>{&b.base()});  // a is done
  t.loop.run_until_complete(b);
  EXPECT_TRUE(all_tasks(t.loop).empty());
}

TEST(AllTasks, IsPerLoop) {
  TestLoop one;
  TestLoop two;
  auto body = []() -> Coro<int> { co_return 1; };
  Task<int> a = create_task(one.loop, body);
  Task<int> b = create_task(two.loop, body);
  EXPECT_EQ(all_tasks(one.loop), std::vector<TaskBase*>{&a.base()});
  EXPECT_EQ(all_tasks(two.loop), std::vector<TaskBase*>{&b.base()});
  one.turn();
  two.turn();
}

TEST(AllTasks, ACancelledTaskLeavesOnceItsCancellationIsDelivered) {
  TestLoop t;
  auto body = []() -> Coro<int> {
    co_await sleep(1s);
    co_return 1;
  };
  Task<int> task = create_task(t.loop, body);
  t.turn();
  task.cancel();
  EXPECT_EQ(all_tasks(t.loop).size(), 1u);  // not done yet
  t.turn();
  EXPECT_TRUE(all_tasks(t.loop).empty());
}

}  // namespace
}  // namespace looplab
