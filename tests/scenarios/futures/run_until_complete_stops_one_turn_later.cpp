// run_until_complete() stops in the turn after completion: callbacks queued before its stop run.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(run_until_complete_stops_one_turn_later) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.add_done_callback([&](Future<int>&) {
    trace("stop turn: done callback (added before run_until_complete)");
    loop.call_soon([] { trace("next run: queued by the done callback"); });
  });
  loop.call_soon([&] {
    trace("completion turn: set_result(7)");
    future.set_result(7);
    loop.call_soon([] { trace("stop turn: queued after set_result"); });
  });
  trace("run_until_complete -> " + std::to_string(loop.run_until_complete(future)));
  run_one_turn(loop);
  trace("one more turn ran");
  loop.close();
}

// expect: completion turn: set_result(7)
// expect: stop turn: done callback (added before run_until_complete)
// expect: stop turn: queued after set_result
// expect: run_until_complete -> 7
// expect: next run: queued by the done callback
// expect: one more turn ran
