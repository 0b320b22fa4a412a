// A task that swallows a cancellation and then fails is still reported when nobody retrieves its
// error, as is the ExceptionGroup of a task whose TaskGroup cancelled it: its repr lists the
// group's exceptions.
#include <optional>

#include "looplab/task_group.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> stubborn() {
  bool cancelled = false;
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    cancelled = true;
  }
  if (cancelled) say_at(looplab::get_running_loop(), "stubborn swallowed its cancellation");
  throw looplab::ValueError("after cancel");
}

looplab::Coro<void> boom() {
  co_await looplab::sleep(10ms);
  throw looplab::ValueError("one");
}

looplab::Coro<void> group_body(looplab::TaskGroup* group) {
  group->create_task(boom());
  co_await looplab::sleep(1s);
}

looplab::Coro<void> grouped() { co_await looplab::task_group(group_body); }

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  loop.set_exception_handler(
      [](looplab::EventLoop& loop, const looplab::ExceptionContext& context) {
        say_at(loop, "handler: " + context.message);
        say_at(loop, "exception: " + looplab::exception_repr(context.exception));
      });
  std::optional<looplab::Task<int>> task = looplab::create_task(loop, stubborn());
  co_await looplab::sleep(0s);
  task->cancel();
  co_await looplab::sleep(20ms);
  say_at(loop, "dropping the stubborn task");
  task.reset();
  std::optional<looplab::Task<void>> group = looplab::create_task(loop, grouped());
  co_await looplab::sleep(20ms);
  say_at(loop, "dropping the grouped task");
  group.reset();
  say_at(loop, "done");
}

}  // namespace

LOOPLAB_SCENARIO(unretrieved_group_error_after_cancel_is_reported) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 stubborn swallowed its cancellation
// expect: t=0.020 dropping the stubborn task
// expect: t=0.020 handler: Task exception was never retrieved
// expect: t=0.020 exception: ValueError('after cancel')
// expect: t=0.040 dropping the grouped task
// expect: t=0.040 handler: Task exception was never retrieved
// expect: t=0.040 exception: ExceptionGroup('unhandled errors in a TaskGroup', [ValueError('one')])
// expect: t=0.040 done
