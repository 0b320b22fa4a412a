// Cancelling a handle that already ran raises nothing and runs nothing again.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(cancel_after_run_is_noop) {
  looplab::EventLoop loop;
  int runs = 0;
  looplab::Handle handle = loop.call_soon([&] {
    ++runs;
    trace("B ran");
  });
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  handle.cancel();  // too late to matter, but not an error
  trace("cancel() after the run: no error");
  trace(std::string("cancelled() = ") +
        (handle.cancelled() ? "True" : "False"));  // the flag is set anyway
  loop.stop();
  loop.run_forever();
  trace("B ran " + std::to_string(runs) + " time(s)");
  loop.close();
}

// expect: B ran
// expect: cancel() after the run: no error
// expect: cancelled() = True
// expect: B ran 1 time(s)
