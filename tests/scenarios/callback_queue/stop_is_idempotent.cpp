// Two stop() calls still mean one turn, and run_forever() clears the flag when it returns.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(stop_is_idempotent) {
  looplab::EventLoop loop;
  auto c = [&] {
    trace("C ran, calls stop()");
    loop.stop();
  };
  auto b = [&] {
    trace("B ran, schedules C");
    loop.call_soon(c);
  };
  auto a = [&] {
    trace("A ran, schedules B");
    loop.call_soon(b);
  };
  loop.call_soon(a);
  loop.stop();
  loop.stop();
  trace("run_forever after stop(); stop()");
  loop.run_forever();  // one turn: A only
  trace("run_forever returned");
  trace("run_forever again, no stop() before it");
  loop.run_forever();  // B's turn, then C's turn, which stops the loop
  trace("run_forever returned");
  loop.close();
}

// expect: run_forever after stop(); stop()
// expect: A ran, schedules B
// expect: run_forever returned
// expect: run_forever again, no stop() before it
// expect: B ran, schedules C
// expect: C ran, calls stop()
// expect: run_forever returned
