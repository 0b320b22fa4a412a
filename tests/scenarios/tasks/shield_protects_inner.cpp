// Cancelling a task that awaits shield(inner) leaves inner running; cancelling inner cancels the
// shield.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> inner_work() {
  co_await looplab::sleep(1s);
  say_at(looplab::get_running_loop(), "inner finishes");
  co_return 5;
}

looplab::Coro<int> outer(looplab::Task<int> inner) {
  try {
    looplab::Future<int> shielded = looplab::shield(looplab::Future<int>(inner));
    co_return co_await shielded;
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "outer task cancelled");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> inner = looplab::create_task(loop, inner_work());
  looplab::Task<int> task = looplab::create_task(loop, outer(inner));
  co_await looplab::sleep(500ms);
  task.cancel();
  try {
    co_await task;
  } catch (const looplab::CancelledError&) {
  }
  say_at(loop, "inner cancelling() -> " + std::to_string(inner.cancelling()) + ", done -> " +
                   py(inner.done()));
  int value = co_await inner;
  say_at(loop, "inner returned " + std::to_string(value));
  looplab::Task<int> second = looplab::create_task(loop, inner_work());
  looplab::Future<int> shielded = looplab::shield(looplab::Future<int>(second));
  co_await looplab::sleep(500ms);
  second.cancel();
  try {
    co_await shielded;
  } catch (const looplab::CancelledError&) {
    say_at(loop, std::string("inner cancelled, so the shield is: ") + py(shielded.cancelled()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(shield_protects_inner) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.500 outer task cancelled
// expect: t=0.500 inner cancelling() -> 0, done -> False
// expect: t=1.000 inner finishes
// expect: t=1.000 inner returned 5
// expect: t=1.500 inner cancelled, so the shield is: True
