// A writer runs every turn while its descriptor is writable, until it removes itself.
#include "scenarios/io/io_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py_bool;
using looplab::testing::SocketPair;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(writer_runs_while_writable) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  int calls = 0;
  loop.add_writer(here, [&] {
    trace_at(loop, "writer call " + std::to_string(++calls));
    if (calls == 2) {
      trace_at(loop, std::string("writer removes itself: remove_writer -> ") +
                         py_bool(loop.remove_writer(here)));
    }
  });
  loop.call_later(100ms, [&] {
    trace_at(loop, "timer: " + std::to_string(calls) + " writer calls");
    loop.stop();
  });
  loop.run_forever();
  loop.close();
}

// expect: t=0.000 writer call 1
// expect: t=0.000 writer call 2
// expect: t=0.000 writer removes itself: remove_writer -> True
// expect: t=0.100 timer: 2 writer calls
