// A coroutine awaited before still becomes a task, which takes its Task-N, and fails at its first
// step with "cannot reuse already awaited coroutine"; gather() and shield() of one fail the same
// way, when awaited.
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::say_at;

namespace {

looplab::Coro<int> one() { co_return 1; }

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Coro<int> coro = one();
  int value = co_await std::move(coro);
  say_at(loop, "awaited: " + std::to_string(value));
  looplab::Task<int> task = looplab::create_task(loop, std::move(coro));
  say_at(loop, task.get_name() + (task.done() ? " done" : " pending"));
  co_await looplab::sleep(std::chrono::seconds(0));
  say_at(loop, std::string("done: ") + (task.done() ? "True" : "False") + ", " +
                   looplab::exception_repr(task.exception()));
  try {
    co_await task;
  } catch (const looplab::RuntimeError& error) {
    say_at(loop, std::string("await: ") + error.what());
  }
  looplab::Coro<int> again = one();
  co_await std::move(again);
  std::vector<looplab::Coro<int>> children;
  children.push_back(std::move(again));
  looplab::Future<std::vector<looplab::Outcome<int>>> outcomes =
      looplab::gather_return_exceptions(loop, std::move(children));
  co_await outcomes;
  say_at(loop, outcomes.repr());
  looplab::Coro<int> shielded = one();
  co_await std::move(shielded);
  looplab::Future<int> outer = looplab::shield(std::move(shielded));
  try {
    co_await outer;
  } catch (const looplab::RuntimeError& error) {
    say_at(loop, std::string("shield: ") + error.what());
  }
  looplab::Task<int> following = looplab::create_task(loop, one());
  say_at(loop, "next: " + following.get_name());
  co_await following;
}

}  // namespace

LOOPLAB_SCENARIO(task_of_an_awaited_coroutine_fails_at_its_first_step) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 awaited: 1
// expect: t=0.000 Task-2 pending
// expect: t=0.000 done: True, RuntimeError('cannot reuse already awaited coroutine')
// expect: t=0.000 await: cannot reuse already awaited coroutine
// expect: t=0.000 <_GatheringFuture finished result=[RuntimeError(...ed coroutine')]>
// expect: t=0.000 shield: cannot reuse already awaited coroutine
// expect: t=0.000 next: Task-5
