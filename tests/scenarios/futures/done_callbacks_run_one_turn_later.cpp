// Completing a future does not run its done callbacks: they run in the next turn.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(done_callbacks_run_one_turn_later) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int turn = 0;
  Future<int> future = loop.create_future<int>();
  future.add_done_callback([&](Future<int>& f) {
    trace("turn " + std::to_string(turn) + ": done callback sees result " +
          std::to_string(f.result()));
  });
  loop.call_soon([&] {
    future.set_result(42);
    trace("turn " + std::to_string(turn) + ": set_result(42); done() -> " + py_bool(future.done()));
  });
  loop.call_soon(
      [&] { trace("turn " + std::to_string(turn) + ": next callback of the same turn"); });
  for (int i = 0; i < 3; ++i) {
    ++turn;
    run_one_turn(loop);
    trace("after turn " + std::to_string(turn));
  }
  loop.close();
}

// expect: turn 1: set_result(42); done() -> True
// expect: turn 1: next callback of the same turn
// expect: after turn 1
// expect: turn 2: done callback sees result 42
// expect: after turn 2
// expect: after turn 3
