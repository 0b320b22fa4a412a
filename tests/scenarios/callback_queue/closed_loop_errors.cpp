// close() refuses a running loop; after close(), scheduling and running raise, close() again is a
// no-op.
#include <functional>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static void attempt(const std::string& label, const std::function<void()>& action) {
  try {
    action();
    trace(label + ": no error");
  } catch (const looplab::RuntimeError& e) {
    trace(label + ": RuntimeError: " + e.what());
  }
}

static const char* yes_no(bool value) { return value ? "True" : "False"; }

LOOPLAB_SCENARIO(closed_loop_errors) {
  looplab::EventLoop loop;
  loop.call_soon([&] { attempt("close() while running", [&] { loop.close(); }); });
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace(std::string("is_closed() = ") + yes_no(loop.is_closed()));
  loop.close();
  trace(std::string("is_closed() = ") + yes_no(loop.is_closed()));
  attempt("call_soon", [&] { loop.call_soon([] { trace("never"); }); });
  attempt("run_forever", [&] { loop.run_forever(); });
  attempt("close() again", [&] { loop.close(); });
  trace(std::string("is_closed() = ") + yes_no(loop.is_closed()));
}

// expect: close() while running: RuntimeError: Cannot close a running event loop
// expect: is_closed() = False
// expect: is_closed() = True
// expect: call_soon: RuntimeError: Event loop is closed
// expect: run_forever: RuntimeError: Event loop is closed
// expect: close() again: no error
// expect: is_closed() = True
