// An exception in a callback goes to the default handler; the next callback still runs.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(exception_next_callback_runs) {
  looplab::EventLoop loop;
  loop.call_soon([] {
    trace("A raises ValueError('boom')");
    throw looplab::ValueError("boom");
  });
  loop.call_soon([] { trace("B ran"); });
  loop.stop();         // stop() before run_forever(): run exactly one turn
  loop.run_forever();  // the default handler writes "Exception in callback ..." to stderr
  trace("turn done");
  loop.close();
}

// expect: A raises ValueError('boom')
// expect: B ran
// expect: turn done
// expect-stderr: Exception in callback
// expect-stderr: ValueError: boom
