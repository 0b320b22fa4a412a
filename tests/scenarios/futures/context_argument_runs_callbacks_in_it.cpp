// call_soon(), call_later() and add_done_callback() take context=: the
// callback runs in that Context instead of a copy of the caller's.
#include <chrono>
#include <string>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

void show(const std::string& label) { trace(label + ": request_id = " + request_id.get()); }

}  // namespace

LOOPLAB_SCENARIO(context_argument_runs_callbacks_in_it) {
  looplab::Context::current() = looplab::Context();
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  request_id.set("caller");
  looplab::Context given = looplab::Context::copy_current();
  given.run([] { request_id.set("given"); });
  loop.call_soon([] { show("call_soon"); });
  loop.call_soon([] { show("call_soon(context=given)"); }, given);
  loop.call_later(
      1s, [] { show("call_later(context=given)"); }, given);
  loop.call_at(
      loop.time() + 2s, [] { show("call_at(context=given)"); }, given);
  Future<> future = loop.create_future();
  future.add_done_callback([](Future<>&) { show("done callback"); });
  future.add_done_callback([](Future<>&) { show("done callback(context=given)"); }, given);
  loop.call_later(3s, [future] { future.set_result(); });
  loop.run_until_complete(future);
  loop.close();
}

// expect: call_soon: request_id = caller
// expect: call_soon(context=given): request_id = given
// expect: call_later(context=given): request_id = given
// expect: call_at(context=given): request_id = given
// expect: done callback: request_id = caller
// expect: done callback(context=given): request_id = given
