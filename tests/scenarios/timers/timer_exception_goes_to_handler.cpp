// An exception in a timer callback goes to the exception handler; later timers still run.
#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(timer_exception_goes_to_handler) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    if (context.message.starts_with("Exception in callback")) {
      trace("handler: message starts with 'Exception in callback'");
    }
    trace("handler: exception = " + looplab::describe_exception(context.exception));
  });
  loop.call_later(100ms, [&] {
    trace_at(loop, "boom raises ValueError('late boom')");
    throw looplab::ValueError("late boom");
  });
  loop.call_later(200ms, [&] {
    trace_at(loop, "later ran");
    loop.stop();
  });
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.100 boom raises ValueError('late boom')
// expect: handler: message starts with 'Exception in callback'
// expect: handler: exception = ValueError: late boom
// expect: t=0.200 later ran
// expect: t=0.200 run_forever returned
