// A custom handler that raises is reported by the default handler; the loop keeps going.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(failing_custom_handler) {
  looplab::EventLoop loop;
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext&) {
    trace("handler called, raises RuntimeError('handler broke')");
    throw looplab::RuntimeError("handler broke");
  });
  loop.call_soon([] {
    trace("A raises ValueError('boom')");
    throw looplab::ValueError("boom");
  });
  loop.call_soon([] { trace("B ran"); });
  loop.stop();         // stop() before run_forever(): run exactly one turn
  loop.run_forever();  // stderr: "Unhandled error in exception handler"
  trace("turn done");
  loop.close();
}

// expect: A raises ValueError('boom')
// expect: handler called, raises RuntimeError('handler broke')
// expect: B ran
// expect: turn done
// expect-stderr: Unhandled error in exception handler
// expect-stderr: RuntimeError: handler broke
