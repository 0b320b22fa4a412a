// With eager_task_factory a child's first step runs inside create_task(): a child that finishes
// there is done before create_task() returns and never joins the group's tasks (repr() counts
// none); one that suspends joins them, and the block waits for it.
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> quick() {
  say("quick child runs and returns");
  co_return 1;
}

looplab::Coro<void> slow() {
  say("slow child runs until its first await");
  co_await looplab::sleep(0s);
  say("slow child finishes");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  looplab::Task<int> task = group->create_task(quick());
  say(std::string("quick done: ") + py(task.done()) + "; " + group->repr());
  group->create_task(slow());
  say("slow created; " + group->repr());
  co_return;
}

looplab::Coro<void> main_task() {
  co_await looplab::task_group(body);
  say("the block ends");
}

}  // namespace

LOOPLAB_SCENARIO(group_eager_child_done_never_joins) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task());
  run_turns(loop, 4);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: quick child runs and returns
// expect: turn 1: quick done: True; <TaskGroup entered>
// expect: turn 1: slow child runs until its first await
// expect: turn 1: slow created; <TaskGroup tasks=1 entered>
// expect: turn 2: slow child finishes
// expect: turn 4: the block ends
