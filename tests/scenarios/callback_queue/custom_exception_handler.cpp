// set_exception_handler(h): h gets the message, the exception and the handle.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(custom_exception_handler) {
  looplab::EventLoop loop;
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    if (context.message.starts_with("Exception in callback")) {
      trace("handler: message starts with 'Exception in callback'");
    } else {
      trace("handler: unexpected message " + context.message);
    }
    trace("handler: exception = " + looplab::describe_exception(context.exception));
    trace(std::string("handler: has handle = ") + (context.handle ? "True" : "False"));
  });
  loop.call_soon([] {
    trace("A raises ValueError('boom')");
    throw looplab::ValueError("boom");
  });
  loop.call_soon([] { trace("B ran"); });
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: A raises ValueError('boom')
// expect: handler: message starts with 'Exception in callback'
// expect: handler: exception = ValueError: boom
// expect: handler: has handle = True
// expect: B ran
// expect: turn done
