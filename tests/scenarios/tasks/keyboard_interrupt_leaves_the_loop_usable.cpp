// KeyboardInterrupt leaves run_until_complete(); the loop's stop callback, queued anyway, does
// not stop the next run, and SystemExit out of run() still lets the leftover tasks finish their
// cleanup.
#include "looplab/run.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;
using looplab::testing::trace;

namespace {

looplab::Coro<int> interrupted() {
  throw looplab::KeyboardInterrupt();
  co_return 0;
}

looplab::Coro<int> work() {
  co_await looplab::sleep(0s);
  co_await looplab::sleep(500ms);
  co_return 5;
}

looplab::Coro<void> sibling() {
  std::exception_ptr error;  // Python's finally: C++ may not co_await inside a handler
  try {
    co_await looplab::sleep(10s);
  } catch (...) {
    error = std::current_exception();
  }
  for (int i = 0; i < 3; ++i) co_await looplab::sleep(250ms);
  say_at(looplab::get_running_loop(), "sibling cleanup finished");
  if (error) std::rethrow_exception(error);
}

looplab::Coro<void> main_task() {
  (void)looplab::create_task(looplab::get_running_loop(), sibling());
  co_await looplab::sleep(1s);
  throw looplab::SystemExit(3);
}

}  // namespace

LOOPLAB_SCENARIO(keyboard_interrupt_leaves_the_loop_usable) {
  looplab::VirtualClock clock;
  {
    looplab::EventLoop loop(clock);
    try {
      (void)loop.run_until_complete(interrupted());
    } catch (const looplab::KeyboardInterrupt&) {
      trace("KeyboardInterrupt escaped");
    }
    trace("second run -> " + std::to_string(loop.run_until_complete(work())));
    loop.close();
  }
  looplab::VirtualClock run_clock;
  try {
    looplab::run(main_task(), run_clock);
  } catch (const looplab::SystemExit& error) {
    trace("SystemExit " + std::to_string(error.code()));
  }
}

// expect: KeyboardInterrupt escaped
// expect: second run -> 5
// expect: t=1.750 sibling cleanup finished
// expect: SystemExit 3
