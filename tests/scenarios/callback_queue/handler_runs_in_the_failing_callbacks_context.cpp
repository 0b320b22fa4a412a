// A custom exception handler runs in the Context of the callback that failed
// (asyncio 3.12+; 3.11 ran it in the caller's): it sees the failing request's
// id, including a value the callback set before it raised.
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {
looplab::ContextVar<std::string> request_id("request_id", "none");
}

LOOPLAB_SCENARIO(handler_runs_in_the_failing_callbacks_context) {
  looplab::Context::current() = looplab::Context();
  looplab::EventLoop loop;
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext&) {
    trace("handler sees request_id = " + request_id.get());
  });
  request_id.set("req-1");
  loop.call_soon([] { throw looplab::ValueError("boom"); });
  request_id.set("req-2");
  loop.call_soon([] {
    request_id.set("req-2, changed inside");
    throw looplab::ValueError("boom");
  });
  request_id.set("main");
  loop.stop();  // one turn
  loop.run_forever();
  loop.call_exception_handler({.message = "reported by main"});
  trace("main sees request_id = " + request_id.get());
  loop.close();
}

// expect: handler sees request_id = req-1
// expect: handler sees request_id = req-2, changed inside
// expect: handler sees request_id = main
// expect: main sees request_id = main
