// A reader's exception goes to the exception handler; the reader stays registered and runs again.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(reader_exception_goes_to_handler) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    if (context.message.starts_with("Exception in callback")) {
      trace("handler: message starts with 'Exception in callback'");
    }
    trace("handler: exception = " + looplab::describe_exception(context.exception));
  });
  int here = pair.left();
  int calls = 0;
  loop.add_reader(here, [&] {
    if (++calls == 1) {
      trace_at(loop, "reader call 1 raises ValueError('bad frame')");
      throw looplab::ValueError("bad frame");
    }
    trace_at(loop, "reader call " + std::to_string(calls) + " reads " +
                       quoted(SocketPair::receive(here)));
    trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
    loop.stop();
  });
  SocketPair::send(pair.right(), "x");
  loop.run_forever();
  trace_at(loop, "run_forever returned after " + std::to_string(calls) + " reader calls");
  loop.close();
}

// expect: t=0.000 reader call 1 raises ValueError('bad frame')
// expect: handler: message starts with 'Exception in callback'
// expect: handler: exception = ValueError: bad frame
// expect: t=0.000 reader call 2 reads 'x'
// expect: remove_reader -> True
// expect: t=0.000 run_forever returned after 2 reader calls
