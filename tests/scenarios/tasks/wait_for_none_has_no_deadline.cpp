// wait_for(aw, None) has no deadline: a task is awaited however long it takes, and a coroutine
// runs inline in the awaiting task, which is the only task there is.
#include <cstddef>
#include <optional>

#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> slow(std::chrono::milliseconds delay) {
  co_await looplab::sleep(delay);
  co_return 1;
}

looplab::Coro<std::size_t> counts_tasks() {
  co_await looplab::sleep(1s);
  co_return looplab::all_tasks(looplab::get_running_loop()).size();
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> task = looplab::create_task(loop, slow(3600s));
  int value = co_await looplab::wait_for(looplab::Future<int>(task), std::nullopt);
  say_at(loop, "task after an hour -> " + std::to_string(value));
  std::optional<std::chrono::seconds> none;
  std::size_t tasks = co_await looplab::wait_for(counts_tasks(), none);
  say_at(loop, "tasks seen by the coroutine -> " + std::to_string(tasks));
  std::optional<std::chrono::seconds> limit = 2s;
  try {
    co_await looplab::wait_for(slow(5s), limit);
  } catch (const looplab::TimeoutError&) {
    say_at(loop, "a delay that is not None is a deadline -> TimeoutError");
  }
}

}  // namespace

LOOPLAB_SCENARIO(wait_for_none_has_no_deadline) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=3600.000 task after an hour -> 1
// expect: t=3601.000 tasks seen by the coroutine -> 1
// expect: t=3603.000 a delay that is not None is a deadline -> TimeoutError
