// An error raised while run() cancels the leftovers (here a leftover that
// raises SystemExit when cancelled) comes out of run() in place of main's
// result, as out of asyncio.Runner's `with` block; the loop is closed.
#include "looplab/run.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;

namespace {

looplab::Coro<void> leftover() {
  bool cancelled = false;
  try {
    co_await looplab::sleep(100s);
  } catch (const looplab::CancelledError&) {
    cancelled = true;
  }
  if (cancelled) {
    trace("leftover cancelled, exits");
    throw looplab::SystemExit(3);
  }
}

looplab::Coro<int> main_task() {
  (void)looplab::create_task(looplab::get_running_loop(), leftover());
  co_await looplab::sleep(0s);
  trace("main returns 1");
  co_return 1;
}

looplab::Coro<void> run_inside_a_loop(looplab::Clock* clock) {
  try {
    (void)looplab::run(main_task(), *clock);
  } catch (const looplab::RuntimeError& error) {
    trace(std::string("RuntimeError: ") + error.what());
  }
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(run_lets_an_error_of_the_cleanup_out) {
  looplab::VirtualClock clock;
  try {
    trace("run() returned " + std::to_string(looplab::run(main_task(), clock)));
  } catch (const looplab::SystemExit& exit) {
    trace("run() raised SystemExit " + std::to_string(exit.code()));
  }
  looplab::run(run_inside_a_loop(&clock), clock);
}

// expect: main returns 1
// expect: leftover cancelled, exits
// expect: run() raised SystemExit 3
// expect: RuntimeError: asyncio.run() cannot be called from a running event loop
