// A callback added to a future that is already done is queued, not run: it waits for a turn.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(callback_added_to_done_future_waits_a_turn) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int turn = 0;
  auto at = [&turn] { return "turn " + std::to_string(turn) + ": "; };
  Future<std::string> future = loop.create_future<std::string>();
  future.set_result("ready");
  bool ran = false;
  future.add_done_callback([&](Future<std::string>& f) {
    ran = true;
    trace(at() + "callback added before the loop ran sees " + quoted(f.result()));
  });
  trace(std::string("added outside the loop; ran inline: ") + py_bool(ran));
  loop.call_soon([&] {
    future.add_done_callback([&](Future<std::string>& f) {
      trace(at() + "callback added during turn 1 sees " + quoted(f.result()));
    });
    trace(at() + "add_done_callback on a done future");
  });
  loop.call_soon([&] { trace(at() + "next callback of the turn"); });
  for (int i = 0; i < 3; ++i) {
    ++turn;
    run_one_turn(loop);
    trace("after turn " + std::to_string(turn));
  }
  loop.close();
}

// expect: added outside the loop; ran inline: False
// expect: turn 1: callback added before the loop ran sees 'ready'
// expect: turn 1: add_done_callback on a done future
// expect: turn 1: next callback of the turn
// expect: after turn 1
// expect: turn 2: callback added during turn 1 sees 'ready'
// expect: after turn 2
// expect: after turn 3
