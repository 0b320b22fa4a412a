// call_soon copies the current context when it is called, not when the callback runs.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static looplab::ContextVar<std::string> request_id("request_id");

LOOPLAB_SCENARIO(context_captured_at_schedule_time) {
  looplab::EventLoop loop;
  auto show = [] { trace("show: request_id = " + request_id.get()); };
  request_id.set("req-1");
  loop.call_soon(show);
  request_id.set("req-2");  // too late: show's context was copied above
  loop.stop();              // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("outside: request_id = " + request_id.get());
  loop.close();
}

// expect: show: request_id = req-1
// expect: outside: request_id = req-2
