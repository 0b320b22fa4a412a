// shield(coro) makes the coroutine a task that nobody holds: cancelling the task that awaits the
// shield leaves that task running to its end.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> inner_work() {
  co_await looplab::sleep(1s);
  say_at(looplab::get_running_loop(), "inner finishes");
  co_return 5;
}

looplab::Coro<int> outer() {
  try {
    co_return co_await looplab::shield(inner_work());
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "outer task cancelled");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> task = looplab::create_task(loop, outer());
  co_await looplab::sleep(500ms);
  say_at(loop, "tasks -> " + std::to_string(looplab::all_tasks(loop).size()));
  task.cancel();
  try {
    co_await task;
  } catch (const looplab::CancelledError&) {
  }
  co_await looplab::sleep(1s);
  say_at(loop, "tasks -> " + std::to_string(looplab::all_tasks(loop).size()));
}

}  // namespace

LOOPLAB_SCENARIO(shield_of_a_coroutine_runs_on) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.500 tasks -> 3
// expect: t=0.500 outer task cancelled
// expect: t=1.000 inner finishes
// expect: t=1.500 tasks -> 1
