// run_forever() from inside a callback raises; the loop itself keeps running.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(run_forever_reentrant) {
  looplab::EventLoop loop;
  loop.call_soon([&] {
    trace("A calls run_forever()");
    try {
      loop.run_forever();
    } catch (const looplab::RuntimeError& e) {
      trace(std::string("A: RuntimeError: ") + e.what());
    }
  });
  loop.call_soon([&] {
    // Not printing is_running() here: CPython 3.13.0 wrongly reports False
    // after the refused nested call (gh-130145); looplab reports True.
    trace("B ran, calls stop()");
    loop.stop();
  });
  loop.run_forever();  // until B calls stop()
  trace("run_forever returned");
  loop.close();
}

// expect: A calls run_forever()
// expect: A: RuntimeError: This event loop is already running
// expect: B ran, calls stop()
// expect: run_forever returned
