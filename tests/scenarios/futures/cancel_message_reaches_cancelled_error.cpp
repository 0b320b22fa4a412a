// cancel(msg) returns True once; result() and exception() raise CancelledError carrying msg.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

template <typename F>
void show(const std::string& label, F&& call) {
  try {
    call();
  } catch (const looplab::CancelledError& error) {
    trace(label + " raises CancelledError " + quoted(error.what()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancel_message_reaches_cancelled_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.add_done_callback([](Future<int>& f) {
    trace(std::string("done callback: cancelled() -> ") + py_bool(f.cancelled()));
  });
  trace(std::string("cancel('stop now') -> ") + py_bool(future.cancel("stop now")));
  trace(std::string("cancel('again') -> ") + py_bool(future.cancel("again")));
  show("result()", [&] { future.result(); });
  show("exception()", [&] { future.exception(); });
  Future<int> plain = loop.create_future<int>();
  trace(std::string("cancel() -> ") + py_bool(plain.cancel()));
  show("without a message: result()", [&] { plain.result(); });
  Future<int> done = loop.create_future<int>();
  done.set_result(1);
  trace(std::string("cancel() of a finished future -> ") + py_bool(done.cancel()) +
        "; result() -> " + std::to_string(done.result()));
  run_one_turn(loop);
  loop.close();
}

// expect: cancel('stop now') -> True
// expect: cancel('again') -> False
// expect: result() raises CancelledError 'stop now'
// expect: exception() raises CancelledError 'stop now'
// expect: cancel() -> True
// expect: without a message: result() raises CancelledError ''
// expect: cancel() of a finished future -> False; result() -> 1
// expect: done callback: cancelled() -> True
