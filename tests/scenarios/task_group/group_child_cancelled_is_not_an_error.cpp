// TaskGroup: a child cancelled by someone else is not an error: the group goes on, the sibling
// finishes and the block ends normally. (gather_child_cancelled_is_the_awaiters_error: gather().)
#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> worker(std::string name, std::chrono::seconds delay) {
  try {
    co_await looplab::sleep(delay);
  } catch (const looplab::CancelledError&) {
    say_at(name + " cancelled");
    throw;
  }
  say_at(name + " finished");
}

// The block of `async with asyncio.TaskGroup() as group:`.
looplab::Coro<void> body(looplab::TaskGroup* group) {
  looplab::Task<void> victim = group->create_task(worker("victim", 5s));
  group->create_task(worker("other", 2s));
  looplab::get_running_loop().call_later(1s, [victim] { victim.cancel(); });
  co_return;
}

looplab::Coro<void> main_task() {
  co_await looplab::task_group(body);
  say_at("the block ends without an error");
}

}  // namespace

LOOPLAB_SCENARIO(group_child_cancelled_is_not_an_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 victim cancelled
// expect: t=2.000 other finished
// expect: t=2.000 the block ends without an error
