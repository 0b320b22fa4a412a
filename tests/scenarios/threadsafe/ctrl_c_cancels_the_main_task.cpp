// Ctrl-C while run() runs: the first SIGINT cancels the main task, whose cleanup runs (and
// the runner's own cleanup of the tasks left behind), then run() raises KeyboardInterrupt.
// A main that takes the cancellation back returns normally. A second SIGINT raises
// KeyboardInterrupt at once, out of the loop; the runner's cleanup then cancels main again.
// (raise() delivers the signal before it returns: the C handler has run when it does.)
#include <signal.h>

#include <exception>
#include <string>

#include "looplab/run.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;
using looplab::testing::trace;

namespace {

looplab::Coro<void> leftover() {
  try {
    co_await looplab::sleep(100s);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "leftover cancelled");
    throw;
  }
}

looplab::Coro<int> cleans_up() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  (void)looplab::create_task(loop, leftover());
  ::raise(SIGINT);  // Ctrl-C
  std::exception_ptr cancelled;
  try {
    co_await looplab::sleep(3600s);
  } catch (const looplab::CancelledError&) {
    cancelled = std::current_exception();  // C++: no co_await inside a handler
  }
  if (cancelled) {
    say_at(loop, "main cancelled, cleaning up");
    co_await looplab::sleep(500ms);
    say_at(loop, "main cleanup done");
    std::rethrow_exception(cancelled);
  }
  co_return 0;
}

looplab::Coro<int> takes_it_back() {
  ::raise(SIGINT);
  try {
    co_await looplab::sleep(3600s);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "main cancelled, returns 42");
  }
  co_return 42;
}

looplab::Coro<int> stubborn() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  ::raise(SIGINT);
  try {
    co_await looplab::sleep(3600s);
  } catch (const looplab::CancelledError&) {
    say_at(loop, "main swallows the first");
  }
  // Ctrl-C again, from a plain callback: KeyboardInterrupt comes out of the loop there.
  loop.call_soon([] { ::raise(SIGINT); });
  try {
    co_await looplab::sleep(3600s);
  } catch (const looplab::CancelledError&) {
    say_at(loop, "main cancelled by the runner's cleanup");
    throw;
  }
  co_return 0;
}

bool sigint_is_default() {
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  return current.sa_handler == SIG_DFL;
}

void run(const std::string& label, looplab::Coro<int> (*main)()) {
  looplab::VirtualClock clock;
  try {
    int result = looplab::run(main(), clock);
    trace(label + ": run() returned " + std::to_string(result));
  } catch (const looplab::KeyboardInterrupt&) {
    trace(label + ": run() raised KeyboardInterrupt");
  }
  trace(label +
        ": SIGINT has its default action again: " + (sigint_is_default() ? "True" : "False"));
}

}  // namespace

LOOPLAB_SCENARIO(ctrl_c_cancels_the_main_task) {
  signal(SIGINT, SIG_DFL);  // as a shell without job control may have started us: ignored
  run("cleans_up", cleans_up);
  run("takes_it_back", takes_it_back);
  run("stubborn", stubborn);
}

// expect: t=0.000 main cancelled, cleaning up
// expect: t=0.500 main cleanup done
// expect: t=0.500 leftover cancelled
// expect: cleans_up: run() raised KeyboardInterrupt
// expect: cleans_up: SIGINT has its default action again: True
// expect: t=0.000 main cancelled, returns 42
// expect: takes_it_back: run() returned 42
// expect: takes_it_back: SIGINT has its default action again: True
// expect: t=0.000 main swallows the first
// expect: t=0.000 main cancelled by the runner's cleanup
// expect: stubborn: run() raised KeyboardInterrupt
// expect: stubborn: SIGINT has its default action again: True
