// Each done callback runs in a copy of the context current when it was added, not at completion.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

static looplab::ContextVar<std::string> done_request_id("request_id", "none");

namespace {

void first(Future<>&) { trace("first callback: request_id = " + done_request_id.get()); }

void second(Future<>&) {
  trace("second callback: request_id = " + done_request_id.get());
  done_request_id.set("changed inside");  // stays in this callback's context
}

}  // namespace

LOOPLAB_SCENARIO(done_callback_context_captured_when_added) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<> future = loop.create_future();
  done_request_id.set("req-1");
  future.add_done_callback(first);
  done_request_id.set("req-2");
  future.add_done_callback(second);
  done_request_id.set("at completion");
  future.set_result();
  done_request_id.set("req-3");
  future.add_done_callback(first);  // done already: queued now, with req-3
  done_request_id.set("at the turn");
  run_one_turn(loop);
  trace("outside: request_id = " + done_request_id.get());
  loop.close();
}

// expect: first callback: request_id = req-1
// expect: second callback: request_id = req-2
// expect: first callback: request_id = req-3
// expect: outside: request_id = at the turn
