// After main() returns, run() takes as many turns as asyncio.run() to cancel
// the leftovers and close: a callback chain started by a leftover's cleanup
// counts them. (asyncio.Runner.close(): _cancel_all_tasks() waits for the
// cancelled tasks with gather(), then shutdown_asyncgens() and
// shutdown_default_executor() each run as a task: two turns apiece.)
#include "looplab/run.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;

namespace {

void tick(looplab::EventLoop* loop, int count) {
  trace("tick " + std::to_string(count));
  loop->call_soon([loop, count] { tick(loop, count + 1); });
}

looplab::Coro<void> leftover() {
  std::exception_ptr cancelled;
  try {
    co_await looplab::sleep(100s);
  } catch (const looplab::CancelledError&) {
    cancelled = std::current_exception();
  }
  trace("leftover cancelled");
  looplab::EventLoop& loop = looplab::get_running_loop();
  loop.call_soon([&loop] { tick(&loop, 1); });
  std::rethrow_exception(cancelled);
}

looplab::Coro<void> main_task() {
  (void)looplab::create_task(looplab::get_running_loop(), leftover());
  co_await looplab::sleep(0s);
  trace("main returns");
}

}  // namespace

LOOPLAB_SCENARIO(run_shutdown_takes_asyncios_turns) {
  looplab::VirtualClock clock;
  looplab::run(main_task(), clock);
  trace("run() returned");
}

// expect: main returns
// expect: leftover cancelled
// expect: tick 1
// expect: tick 2
// expect: tick 3
// expect: tick 4
// expect: tick 5
// expect: tick 6
// expect: run() returned
