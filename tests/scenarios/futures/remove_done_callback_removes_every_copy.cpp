// remove_done_callback(fn) removes every copy of fn and says how many; after completion, 0.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

void on_done(Future<>&) { trace("on_done ran"); }
void other(Future<>&) { trace("other ran"); }

}  // namespace

LOOPLAB_SCENARIO(remove_done_callback_removes_every_copy) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<> future = loop.create_future();
  // A plain function's id is its address: adding it twice gives one id.
  looplab::DoneCallbackId id = future.add_done_callback(on_done);
  future.add_done_callback(other);
  future.add_done_callback(on_done);
  trace("remove_done_callback(on_done) -> " + std::to_string(future.remove_done_callback(id)));
  trace("remove_done_callback(on_done) -> " + std::to_string(future.remove_done_callback(id)));
  future.add_done_callback(on_done);
  future.set_result();
  trace("after set_result: remove_done_callback(on_done) -> " +
        std::to_string(future.remove_done_callback(id)));
  run_one_turn(loop);
  trace("one turn ran");
  loop.close();
}

// expect: remove_done_callback(on_done) -> 2
// expect: remove_done_callback(on_done) -> 0
// expect: after set_result: remove_done_callback(on_done) -> 0
// expect: other ran
// expect: on_done ran
// expect: one turn ran
