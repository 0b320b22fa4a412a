// timeout() around a group: when it expires it cancels the parent waiting for the children; the
// group cancels those still running, waits for them, and the cancellation leaves timeout() as
// TimeoutError.
#include "looplab/task_group.hpp"
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<void> worker(std::string name, std::chrono::milliseconds delay) {
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
  group->create_task(worker("a", 5s));
  group->create_task(worker("b", 500ms));
  co_return;
}

looplab::Coro<void> main_task() {
  looplab::TaskBase* me = looplab::TaskBase::current();
  try {
    co_await looplab::timeout(1s, looplab::task_group(body));
  } catch (const looplab::TimeoutError&) {
    say_at("TimeoutError");
  }
  say_at("cancelling() = " + std::to_string(me->cancelling()));
}

}  // namespace

LOOPLAB_SCENARIO(group_under_timeout) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.500 b finished
// expect: t=1.000 a cancelled
// expect: t=1.000 TimeoutError
// expect: t=1.000 cancelling() = 0
