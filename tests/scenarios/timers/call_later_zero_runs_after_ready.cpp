// call_later(0) is due at once, but runs after the callbacks already in the ready queue.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(call_later_zero_runs_after_ready) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.call_later(0s, [&] { trace_at(loop, "B ran (call_later 0)"); });  // scheduled first ...
  loop.call_soon([&] { trace_at(loop, "A ran (call_soon)"); });  // ... but A is already ready
  trace("turn 1");
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: turn 1
// expect: t=0.000 A ran (call_soon)
// expect: t=0.000 B ran (call_later 0)
// expect: turn done
