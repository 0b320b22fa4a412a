// stop() before run_forever() makes it run exactly one turn and return.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(stop_before_run) {
  looplab::EventLoop loop;
  auto child = [] { trace("child ran"); };  // must not appear: queued during the only turn
  auto a = [&] {
    trace("A ran, schedules its child");
    loop.call_soon(child);
  };
  loop.call_soon(a);
  loop.stop();
  loop.run_forever();
  trace("run_forever returned");
  trace(std::string("is_running() = ") + (loop.is_running() ? "True" : "False"));
  loop.close();
}

// expect: A ran, schedules its child
// expect: run_forever returned
// expect: is_running() = False
