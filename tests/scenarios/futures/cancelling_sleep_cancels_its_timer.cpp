// Cancelling a sleep cancels its timer, which stays in the heap until the next turn drops it.
#include "scenarios/futures/futures_trace.hpp"

using namespace std::chrono_literals;
using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::seconds_of;
using looplab::testing::trace;

LOOPLAB_SCENARIO(cancelling_sleep_cancels_its_timer) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int turn = 0;
  auto timers = [&] {
    return "scheduled=" + std::to_string(loop.scheduled_count()) +
           " cancelled timers=" + std::to_string(loop.timer_cancelled_count());
  };
  auto at = [&] { return "turn " + std::to_string(turn) + ": "; };
  loop.call_soon([&] {
    Future<> sleeping = looplab::sleep(loop, 1s);
    trace(at() + "sleep(1.0) started: " + timers());
    sleeping.add_done_callback([&](Future<>& f) {
      trace(at() + "done callback: cancelled() -> " + py_bool(f.cancelled()));
    });
    bool cancelled = sleeping.cancel();
    trace(at() + "cancel() -> " + py_bool(cancelled) + ": " + timers());
  });
  for (int i = 0; i < 2; ++i) {
    ++turn;
    run_one_turn(loop);
    trace("after turn " + std::to_string(turn) + ": " + timers() + " t=" + seconds_of(loop.time()));
  }
  loop.close();
}

// expect: turn 1: sleep(1.0) started: scheduled=1 cancelled timers=0
// expect: turn 1: cancel() -> True: scheduled=1 cancelled timers=1
// expect: after turn 1: scheduled=1 cancelled timers=1 t=0.000
// expect: turn 2: done callback: cancelled() -> True
// expect: after turn 2: scheduled=0 cancelled timers=0 t=0.000
