// No "exception was never retrieved" for a cancelled future, nor for a retrieved exception.
//
// cancel() of a future that finished with an exception returns False, yet it
// clears the flag that would report it (futures.py: __log_traceback = False first).
#include <optional>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::trace;

LOOPLAB_SCENARIO(cancelled_future_reports_nothing) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int reports = 0;
  loop.set_exception_handler([&](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    ++reports;
    trace("handler: " + context.message);
  });

  std::optional<Future<int>> future = loop.create_future<int>();
  trace(std::string("cancelled: cancel() -> ") + py_bool(future->cancel()));
  future.reset();

  future = loop.create_future<int>();
  future->set_exception(looplab::ValueError("seen"));
  trace("retrieved: exception() -> " + looplab::describe_exception(future->exception()));
  future.reset();

  future = loop.create_future<int>();
  future->set_exception(looplab::ValueError("silenced"));
  trace(std::string("failed, then cancel() -> ") + py_bool(future->cancel()));
  future.reset();

  future = loop.create_future<int>();
  future->set_exception(looplab::ValueError("reported"));
  trace("failed and dropped");
  future.reset();
  trace("reports: " + std::to_string(reports));
  loop.close();
}

// expect: cancelled: cancel() -> True
// expect: retrieved: exception() -> ValueError: seen
// expect: failed, then cancel() -> False
// expect: failed and dropped
// expect: handler: Future exception was never retrieved
// expect: reports: 1
