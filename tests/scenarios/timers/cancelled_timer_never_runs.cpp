// A cancelled timer never runs; the timers around it do.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(cancelled_timer_never_runs) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  auto ran = [&loop](const char* name) {
    return [&loop, name] { trace_at(loop, std::string(name) + " ran"); };
  };
  loop.call_later(100ms, ran("A"));
  looplab::TimerHandle b = loop.call_later(200ms, ran("B"));  // must never print
  loop.call_later(300ms, ran("C"));
  loop.call_later(1s, [&] { loop.stop(); });
  b.cancel();
  trace(std::string("B cancelled() = ") + (b.cancelled() ? "True" : "False"));
  trace("repr(B) = " + b.repr());  // no callback, so no place: asyncio outside debug mode
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  trace(std::string("B cancelled() = ") + (b.cancelled() ? "True" : "False"));
  loop.close();
}

// expect: B cancelled() = True
// expect: repr(B) = <TimerHandle cancelled when=0.2>
// expect: t=0.100 A ran
// expect: t=0.300 C ran
// expect: t=1.000 run_forever returned
// expect: B cancelled() = True
