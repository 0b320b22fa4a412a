// stop() before run_forever(): one pass with timeout 0 runs the due timers and waits for none.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::at_seconds;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(stop_before_run_runs_due_timers_only) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  auto ran = [&loop](const char* name) {
    return [&loop, name] { trace_at(loop, std::string(name) + " ran"); };
  };
  loop.call_later(0s, ran("A"));  // due now
  loop.call_later(1s, ran("B"));  // not due: the pass must not wait for it
  loop.stop();
  loop.run_forever();
  trace_at(loop, "after the stopped pass");
  loop.call_at(at_seconds(2.0), [&] { loop.stop(); });
  loop.run_forever();
  trace_at(loop, "after the second run");
  loop.close();
}

// expect: t=0.000 A ran
// expect: t=0.000 after the stopped pass
// expect: t=1.000 B ran
// expect: t=2.000 after the second run
