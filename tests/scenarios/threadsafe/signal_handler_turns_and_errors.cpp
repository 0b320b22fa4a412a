// A signal's handler runs as a normal callback two turns after the
// delivery (the self-pipe's reader queues it), once per delivery; asyncio's
// errors for numbers that are not signals and for signals nobody may catch.
#include <signal.h>

#include <functional>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static void attempt(const std::string& label, const std::function<void()>& action) {
  try {
    action();
    trace(label + ": no error");
  } catch (const looplab::ValueError& e) {
    trace(label + ": ValueError: " + e.what());
  } catch (const looplab::RuntimeError& e) {
    trace(label + ": RuntimeError: " + e.what());
  }
}

static const char* yes_no(bool value) { return value ? "True" : "False"; }

LOOPLAB_SCENARIO(signal_handler_turns_and_errors) {
  looplab::EventLoop loop;
  int turn = 1;
  loop.add_signal_handler(SIGUSR1,
                          [&] { trace("turn " + std::to_string(turn) + ": SIGUSR1 handler"); });
  loop.call_soon([&] {
    trace("turn " + std::to_string(turn) + ": raising SIGUSR1 twice");
    ::raise(SIGUSR1);
    ::raise(SIGUSR1);
  });
  for (; turn <= 4; ++turn) {
    loop.stop();  // one turn
    loop.run_forever();
  }
  auto print = [] {};
  attempt("signal 0", [&] { loop.add_signal_handler(0, print); });
  attempt("signal 65", [&] { loop.add_signal_handler(65, print); });
  attempt("SIGKILL", [&] { loop.add_signal_handler(SIGKILL, print); });
  attempt("SIGSTOP", [&] { loop.add_signal_handler(SIGSTOP, print); });
  trace(std::string("remove SIGUSR1: ") + yes_no(loop.remove_signal_handler(SIGUSR1)));
  trace(std::string("remove SIGUSR1 again: ") + yes_no(loop.remove_signal_handler(SIGUSR1)));
  loop.close();
  attempt("after close()", [&] { loop.add_signal_handler(SIGUSR1, print); });
  attempt("signal 0 after close()", [&] { loop.add_signal_handler(0, print); });
}

// expect: turn 1: raising SIGUSR1 twice
// expect: turn 3: SIGUSR1 handler
// expect: turn 3: SIGUSR1 handler
// expect: signal 0: ValueError: invalid signal number 0
// expect: signal 65: ValueError: invalid signal number 65
// expect: SIGKILL: RuntimeError: sig 9 cannot be caught
// expect: SIGSTOP: RuntimeError: sig 19 cannot be caught
// expect: remove SIGUSR1: True
// expect: remove SIGUSR1 again: False
// expect: after close(): RuntimeError: Event loop is closed
// expect: signal 0 after close(): ValueError: invalid signal number 0
