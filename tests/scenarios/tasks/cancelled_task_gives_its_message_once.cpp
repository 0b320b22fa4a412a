// A task whose coroutine ends with a CancelledError gives that error's message to the first who
// asks for it, and CancelledError() without one after; a cancelled future, or a task that
// cancels itself and returns, keeps its message for everyone.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

std::string shown(const looplab::CancelledError& error) {
  return error.message().empty() ? "CancelledError()" : "CancelledError('" + error.message() + "')";
}

looplab::Coro<void> victim() { co_await looplab::sleep(10s); }

looplab::Coro<int> cancels_itself_and_returns() {
  looplab::TaskBase::current()->cancel("from inside");
  co_return 5;
}

looplab::Coro<void> awaits(std::string name, looplab::Task<void> task) {
  try {
    co_await task;
  } catch (const looplab::CancelledError& error) {
    say_at(looplab::get_running_loop(), name + " got " + shown(error));
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<void> task = looplab::create_task(loop, victim());
  co_await looplab::sleep(1s);
  task.cancel("stop now");
  looplab::Task<void> first = looplab::create_task(loop, awaits("first waiter", task));
  looplab::Task<void> second = looplab::create_task(loop, awaits("second waiter", task));
  co_await first;  // asyncio.gather(first, second)
  co_await second;
  try {
    task.result();
  } catch (const looplab::CancelledError& error) {
    say_at(loop, "task.result() -> " + shown(error));
  }
  try {
    (void)task.exception();
  } catch (const looplab::CancelledError& error) {
    say_at(loop, "task.exception() -> " + shown(error));
  }
  looplab::Future<int> future = loop.create_future<int>();
  future.cancel("kept");
  for (int i = 0; i < 2; ++i) {
    try {
      (void)future.result();
    } catch (const looplab::CancelledError& error) {
      say_at(loop, "future.result() -> " + shown(error));
    }
  }
  looplab::Task<int> itself = looplab::create_task(loop, cancels_itself_and_returns());
  for (int i = 0; i < 2; ++i) {
    try {
      (void)co_await itself;
    } catch (const looplab::CancelledError& error) {
      say_at(loop, "await itself -> " + shown(error));
    }
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancelled_task_gives_its_message_once) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(main_task());
  loop.close();
}

// expect: t=1.000 first waiter got CancelledError('stop now')
// expect: t=1.000 second waiter got CancelledError()
// expect: t=1.000 task.result() -> CancelledError()
// expect: t=1.000 task.exception() -> CancelledError()
// expect: t=1.000 future.result() -> CancelledError('kept')
// expect: t=1.000 future.result() -> CancelledError('kept')
// expect: t=1.000 await itself -> CancelledError('from inside')
// expect: t=1.000 await itself -> CancelledError('from inside')
