// run(main()) cancels the tasks main left behind and runs the loop until their cleanup is done.
#include "looplab/run.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;
using looplab::testing::trace;

namespace {

looplab::Coro<void> leftover() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::exception_ptr cancelled;
  try {
    co_await looplab::sleep(100s);
    say_at(loop, "leftover finished?!");
  } catch (const looplab::CancelledError&) {
    cancelled = std::current_exception();  // C++: no co_await inside a handler
  }
  if (cancelled) {
    say_at(loop, "leftover cancelled, cleaning up");
    co_await looplab::sleep(500ms);
    say_at(loop, "leftover cleanup done");
    std::rethrow_exception(cancelled);
  }
}

looplab::Coro<int> main_task() {
  (void)looplab::create_task(looplab::get_running_loop(), leftover());
  co_await looplab::sleep(1s);
  say_at(looplab::get_running_loop(), "main returns 1");
  co_return 1;
}

}  // namespace

LOOPLAB_SCENARIO(run_cancels_leftovers) {
  looplab::VirtualClock clock;
  int result = looplab::run(main_task(), clock);
  trace("run() returned " + std::to_string(result));
}

// expect: t=1.000 main returns 1
// expect: t=1.000 leftover cancelled, cleaning up
// expect: t=1.500 leftover cleanup done
// expect: run() returned 1
