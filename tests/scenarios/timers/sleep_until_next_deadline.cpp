// With nothing ready, the loop sleeps until the next deadline (the virtual clock jumps there).
#include <functional>

#include "scenarios/timers/clock_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(sleep_until_next_deadline) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int hops = 0;
  std::function<void()> hop = [&] {
    trace_at(loop, "hop " + std::to_string(++hops));
    if (hops < 4) {
      loop.call_later(250ms, hop);
    } else {
      loop.stop();
    }
  };
  trace_at(loop, "start");
  loop.call_later(250ms, hop);
  loop.run_forever();
  trace_at(loop, "run_forever returned after " + std::to_string(hops) + " hops");
  loop.close();
}

// expect: t=0.000 start
// expect: t=0.250 hop 1
// expect: t=0.500 hop 2
// expect: t=0.750 hop 3
// expect: t=1.000 hop 4
// expect: t=1.000 run_forever returned after 4 hops
