// Cancelling a timer after it fired raises nothing and changes nothing.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(timer_cancel_after_fire_is_noop) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int runs = 0;
  looplab::TimerHandle handle = loop.call_later(100ms, [&] {
    ++runs;
    trace_at(loop, "timer fired");
  });
  loop.call_later(500ms, [&] { loop.stop(); });
  loop.run_forever();
  handle.cancel();  // too late to matter, but not an error
  trace("cancel() after it fired: no error");
  trace(std::string("cancelled() = ") + (handle.cancelled() ? "True" : "False"));  // set anyway
  loop.call_later(1s, [&] { loop.stop(); });
  loop.run_forever();
  trace_at(loop, "timer ran " + std::to_string(runs) + " time(s)");
  loop.close();
}

// expect: t=0.100 timer fired
// expect: cancel() after it fired: no error
// expect: cancelled() = True
// expect: t=1.500 timer ran 1 time(s)
