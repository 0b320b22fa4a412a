// TimerHandle::when() is the absolute deadline in loop time.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::at_seconds;
using looplab::testing::seconds_of;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(timer_handle_when) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  trace("t=" + seconds_of(loop.time()));
  looplab::TimerHandle h = loop.call_at(at_seconds(2.5), [&] { trace_at(loop, "f ran"); });
  trace("call_at(2.5, f).when() = " + seconds_of(h.when()));
  looplab::TimerHandle g = loop.call_later(1500ms, [&] { trace_at(loop, "g ran"); });
  trace("call_later(1.5, g).when() = " + seconds_of(g.when()));
  loop.call_at(at_seconds(3.0), [&] { loop.stop(); });
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.000
// expect: call_at(2.5, f).when() = 2.500
// expect: call_later(1.5, g).when() = 1.500
// expect: t=1.500 g ran
// expect: t=2.500 f ran
// expect: t=3.000 run_forever returned
