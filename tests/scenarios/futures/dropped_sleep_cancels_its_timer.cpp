// A sleep nobody waits for any more cancels its timer, which then never runs.
//
// In looplab the sleep future owns its timer: dropping the last reference
// cancels it. In CPython, dropping a suspended asyncio.sleep() coroutine
// closes it, and its `finally` cancels the timer.
#include <optional>

#include "scenarios/futures/futures_trace.hpp"

using namespace std::chrono_literals;
using looplab::Future;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(dropped_sleep_cancels_its_timer) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  auto timers = [&] {
    return "scheduled=" + std::to_string(loop.scheduled_count()) +
           " cancelled timers=" + std::to_string(loop.timer_cancelled_count());
  };
  loop.call_soon([&] {
    std::optional<Future<>> sleeping = looplab::sleep(loop, 1s);
    sleeping->add_done_callback([](Future<>&) { trace("done callback ran"); });
    trace_at(loop, "sleep(1.0) started: " + timers());
    sleeping.reset();
    trace_at(loop, "sleep dropped: " + timers());
  });
  loop.call_later(2s, [&] {
    trace_at(loop, "timer: " + timers());
    loop.stop();
  });
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.000 sleep(1.0) started: scheduled=2 cancelled timers=0
// expect: t=0.000 sleep dropped: scheduled=2 cancelled timers=1
// expect: t=2.000 timer: scheduled=0 cancelled timers=0
// expect: t=2.000 run_forever returned
