// asyncio.run() and Ctrl-C: the first SIGINT cancels main (its cleanup runs) and run() raises
// KeyboardInterrupt, unless main swallowed the cancellation; a second SIGINT raises
// KeyboardInterrupt; a program that ignores SIGINT keeps ignoring it. Afterwards SIGINT has its
// default action again.
#include <signal.h>

#include <chrono>
#include <string>

#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/testing/scenario.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;

namespace {

looplab::Coro<int> reraises() {
  ::raise(SIGINT);
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    trace("main: CancelledError, cleaning up");
    throw;
  }
  co_return 1;
}

looplab::Coro<int> swallows() {
  ::raise(SIGINT);
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    trace("main: CancelledError, swallowed");
  }
  co_return 2;
}

looplab::Coro<int> twice() {
  ::raise(SIGINT);
  bool cancelled = false;
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    trace("main: CancelledError, cleaning up slowly");
    cancelled = true;
  }
  if (cancelled) {  // no co_await in a catch handler (pitfall P5)
    ::raise(SIGINT);
    co_await looplab::sleep(1s);
    trace("main: never");
  }
  co_return 3;
}

looplab::Coro<int> ignored() {
  ::raise(SIGINT);
  co_await looplab::sleep(0s);
  trace("main: not interrupted");
  co_return 4;
}

__sighandler_t sigint_action() {
  struct sigaction current {};
  ::sigaction(SIGINT, nullptr, &current);
  return current.sa_handler;
}

void run(const std::string& name, looplab::Coro<int> (*main)()) {
  looplab::VirtualClock clock;
  try {
    int result = looplab::run(main(), clock);
    trace(name + ": run() -> " + std::to_string(result));
  } catch (const looplab::KeyboardInterrupt&) {
    trace(name + ": run() raised KeyboardInterrupt");
  }
  trace(name +
        ": SIGINT has its default action: " + (sigint_action() == SIG_DFL ? "True" : "False"));
}

}  // namespace

LOOPLAB_SCENARIO(run_ctrl_c_cancels_main) {
  __sighandler_t saved = ::signal(SIGINT, SIG_DFL);  // as a program starts
  run("reraises", reraises);
  run("swallows", swallows);
  run("twice", twice);
  ::signal(SIGINT, SIG_IGN);
  run("ignored", ignored);
  trace(std::string("ignored: SIGINT still ignored: ") +
        (sigint_action() == SIG_IGN ? "True" : "False"));
  ::signal(SIGINT, saved);
}

// expect: main: CancelledError, cleaning up
// expect: reraises: run() raised KeyboardInterrupt
// expect: reraises: SIGINT has its default action: True
// expect: main: CancelledError, swallowed
// expect: swallows: run() -> 2
// expect: swallows: SIGINT has its default action: True
// expect: main: CancelledError, cleaning up slowly
// expect: twice: run() raised KeyboardInterrupt
// expect: twice: SIGINT has its default action: True
// expect: main: not interrupted
// expect: ignored: run() -> 4
// expect: ignored: SIGINT has its default action: False
// expect: ignored: SIGINT still ignored: True
