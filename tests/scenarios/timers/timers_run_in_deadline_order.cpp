// Timers run in deadline order, whatever order they were scheduled in.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(timers_run_in_deadline_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  auto ran = [&loop](const char* name) {
    return [&loop, name] { trace_at(loop, std::string(name) + " ran"); };
  };
  loop.call_later(300ms, ran("C"));
  loop.call_later(100ms, ran("A"));
  loop.call_later(200ms, ran("B"));
  loop.call_later(1s, [&] {
    trace_at(loop, "stop");
    loop.stop();
  });
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.100 A ran
// expect: t=0.200 B ran
// expect: t=0.300 C ran
// expect: t=1.000 stop
// expect: t=1.000 run_forever returned
