// stop() from a callback ends the loop after the current turn; later callbacks stay queued.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(stop_inside_callback) {
  looplab::EventLoop loop;
  auto c = [] { trace("C ran"); };
  auto a = [&] {
    trace("A ran, calls stop() and schedules C");
    loop.stop();
    loop.call_soon(c);
  };
  auto b = [] { trace("B ran"); };
  loop.call_soon(a);
  loop.call_soon(b);
  trace("first run_forever");
  loop.run_forever();  // runs until a callback calls stop()
  trace("first run_forever returned");
  loop.stop();
  trace("second run_forever, after stop()");
  loop.run_forever();
  trace("second run_forever returned");
  loop.close();
}

// expect: first run_forever
// expect: A ran, calls stop() and schedules C
// expect: B ran
// expect: first run_forever returned
// expect: second run_forever, after stop()
// expect: C ran
// expect: second run_forever returned
