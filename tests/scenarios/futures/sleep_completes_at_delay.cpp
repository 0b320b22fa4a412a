// sleep(0.25) completes at t=0.250: its timer sets the result, its done callbacks run a turn later.
#include <optional>

#include "scenarios/futures/futures_trace.hpp"

using namespace std::chrono_literals;
using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(sleep_completes_at_delay) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  std::optional<Future<>> sleeping;
  loop.call_soon([&] {
    sleeping = looplab::sleep(loop, 250ms);
    trace_at(loop,
             "sleep(0.25) started: scheduled timers " + std::to_string(loop.scheduled_count()));
    sleeping->add_done_callback([&](Future<>&) { trace_at(loop, "done callback: result None"); });
  });
  loop.call_later(200ms, [&] {
    trace_at(loop, std::string("timer: sleep done() -> ") + py_bool(sleeping->done()));
  });
  run_one_turn(loop);  // turn 1: the sleep starts
  loop.run_until_complete(*sleeping);
  trace_at(loop, "run_until_complete returned; timers cancelled " +
                     std::to_string(loop.timer_cancelled_count()) + ", scheduled " +
                     std::to_string(loop.scheduled_count()));
  loop.close();
}

// expect: t=0.000 sleep(0.25) started: scheduled timers 2
// expect: t=0.200 timer: sleep done() -> False
// expect: t=0.250 done callback: result None
// expect: t=0.250 run_until_complete returned; timers cancelled 0, scheduled 0
