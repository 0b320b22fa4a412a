// call_later copies the current context when it is called, not when the timer fires.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;
using looplab::testing::trace_at;

static looplab::ContextVar<std::string> request_id("request_id");

LOOPLAB_SCENARIO(timer_context_captured_at_call_later) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  request_id.set("req-1");
  loop.call_later(100ms, [&] { trace_at(loop, "show sees request_id = " + request_id.get()); });
  request_id.set("req-2");  // after scheduling: the timer must not see this
  trace("main sees request_id = " + request_id.get());
  loop.call_later(200ms, [&] { loop.stop(); });
  loop.run_forever();
  trace_at(loop, "main still sees request_id = " + request_id.get());
  loop.close();
}

// expect: main sees request_id = req-2
// expect: t=0.100 show sees request_id = req-1
// expect: t=0.200 main still sees request_id = req-2
