// call_at() with a past deadline runs in the next turn, after the callbacks already ready.
#include "scenarios/timers/clock_trace.hpp"

using looplab::testing::at_seconds;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(call_at_in_the_past_runs_now) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.stop();  // one empty turn: the virtual time must not move
  loop.run_forever();
  trace_at(loop, "after an empty turn");
  loop.call_at(at_seconds(-5.0),
               [&] { trace_at(loop, "X ran (call_at -5.0)"); });  // deadline long past
  loop.call_soon([&] { trace_at(loop, "Y ran (call_soon)"); });
  trace("turn 2");
  loop.stop();
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: t=0.000 after an empty turn
// expect: turn 2
// expect: t=0.000 Y ran (call_soon)
// expect: t=0.000 X ran (call_at -5.0)
// expect: turn done
