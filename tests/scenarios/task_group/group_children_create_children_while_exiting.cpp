// A child handed the group may add children to it while the group already waits in its exit:
// the block ends only when the grandchild has ended too.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> grandchild() {
  co_await looplab::sleep(2s);
  say_at("grandchild finished");
}

looplab::Coro<void> child(looplab::TaskGroup* group) {
  co_await looplab::sleep(1s);
  group->create_task(grandchild());
  say_at("child added a grandchild: " + group->repr());
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  group->create_task(child(group));
  say_at("body done: " + group->repr());
  co_return;
}

looplab::Coro<void> main_task() {
  co_await looplab::task_group(body);
  say_at("the block ends");
}

}  // namespace

LOOPLAB_SCENARIO(group_children_create_children_while_exiting) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 body done: <TaskGroup tasks=1 entered>
// expect: t=1.000 child added a grandchild: <TaskGroup tasks=2 entered>
// expect: t=3.000 grandchild finished
// expect: t=3.000 the block ends
