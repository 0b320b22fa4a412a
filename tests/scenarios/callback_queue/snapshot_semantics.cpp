// A turn runs a snapshot of the ready queue: what a callback schedules waits for the next turn.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(snapshot_semantics) {
  looplab::EventLoop loop;
  auto a2 = [] { trace("A2 ran"); };
  auto a = [&] {
    trace("A ran, schedules A2");
    loop.call_soon(a2);
  };
  auto b = [] { trace("B ran"); };
  loop.call_soon(a);
  loop.call_soon(b);
  for (int turn : {1, 2, 3}) {
    trace("turn " + std::to_string(turn));
    loop.stop();  // stop() before run_forever(): run exactly one turn
    loop.run_forever();
  }
  trace("done");
  loop.close();
}

// expect: turn 1
// expect: A ran, schedules A2
// expect: B ran
// expect: turn 2
// expect: A2 ran
// expect: turn 3
// expect: done
