// gather(): a child cancelled by someone else fails gather() with CancelledError, though the
// awaiter itself was not cancelled (its cancelling() is 0); the sibling runs on.
// (group_child_cancelled_is_not_an_error: a TaskGroup.)
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<int> worker(std::string name, std::chrono::seconds delay) {
  try {
    co_await looplab::sleep(delay);
  } catch (const looplab::CancelledError&) {
    say_at(name + " cancelled");
    throw;
  }
  say_at(name + " finished");
  co_return static_cast<int>(delay.count());
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::TaskBase* me = looplab::TaskBase::current();
  looplab::Task<int> victim = looplab::create_task(loop, worker("victim", 5s));
  looplab::Task<int> other = looplab::create_task(loop, worker("other", 2s));
  loop.call_later(1s, [victim] { victim.cancel(); });
  try {
    co_await looplab::gather(loop, victim, other);
  } catch (const looplab::CancelledError&) {
    say_at("gather raised CancelledError; main's cancelling() = " +
           std::to_string(me->cancelling()));
  }
  co_await other;  // nobody else waits for it
}

}  // namespace

LOOPLAB_SCENARIO(gather_child_cancelled_is_the_awaiters_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 victim cancelled
// expect: t=1.000 gather raised CancelledError; main's cancelling() = 0
// expect: t=2.000 other finished
