// A future's exception that nobody retrieved is reported when the future is destroyed.
//
// In C++ that is when its last reference goes, deterministically; a done
// callback still queued holds the future, so the report waits for it.
#include <optional>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(never_retrieved_reported_when_destroyed) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    trace("handler: " + context.message + ": " + looplab::describe_exception(context.exception));
  });

  std::optional<Future<int>> future = loop.create_future<int>();
  future->set_exception(looplab::ValueError("nobody looked"));
  trace("dropping the future");
  future.reset();
  trace("dropped");

  future = loop.create_future<int>();
  future->add_done_callback([](Future<int>&) { trace("done callback ran (does not look)"); });
  future->set_exception(looplab::ValueError("looked at too late"));
  trace("dropping a future whose callback is queued");
  future.reset();
  trace("dropped; nothing reported yet");
  run_one_turn(loop);
  trace("after the turn");
  loop.close();
}

// expect: dropping the future
// expect: handler: Future exception was never retrieved: ValueError: nobody looked
// expect: dropped
// expect: dropping a future whose callback is queued
// expect: dropped; nothing reported yet
// expect: done callback ran (does not look)
// expect: handler: Future exception was never retrieved: ValueError: looked at too late
// expect: after the turn
