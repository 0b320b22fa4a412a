// Eight timers with one deadline run in heapq's order (a c g f h e b d), not FIFO.
#include "scenarios/timers/clock_trace.hpp"

using looplab::testing::at_seconds;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(equal_deadlines_heapq_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int ran_count = 0;
  auto ran = [&](char name) {
    return [&, name] {
      trace_at(loop, std::string(1, name));
      if (++ran_count == 8)
        loop.stop();  // no stop timer: a ninth heap entry would change the tie order
    };
  };
  for (char name : std::string("abcdefgh")) loop.call_at(at_seconds(5.0), ran(name));
  loop.run_forever();
  trace_at(loop, "done");
  loop.close();
}

// expect: t=5.000 a
// expect: t=5.000 c
// expect: t=5.000 g
// expect: t=5.000 f
// expect: t=5.000 h
// expect: t=5.000 e
// expect: t=5.000 b
// expect: t=5.000 d
// expect: t=5.000 done
