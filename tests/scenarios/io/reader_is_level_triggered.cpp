// Readiness is level-triggered: a reader that does not drain its descriptor runs every turn.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(reader_is_level_triggered) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  int calls = 0;
  loop.add_reader(here, [&] {  // never reads: the byte stays there
    trace_at(loop, "reader call " + std::to_string(++calls));
  });
  SocketPair::send(pair.right(), "x");
  for (int i = 0; i < 3; ++i) run_one_turn(loop);
  trace("after 3 turns: " + std::to_string(calls) + " reader calls");
  trace("main drains " + quoted(SocketPair::receive(here)));
  run_one_turn(loop);
  trace("after a 4th turn: " + std::to_string(calls) + " reader calls");
  loop.remove_reader(here);
  loop.close();
}

// expect: t=0.000 reader call 1
// expect: t=0.000 reader call 2
// expect: t=0.000 reader call 3
// expect: after 3 turns: 3 reader calls
// expect: main drains 'x'
// expect: after a 4th turn: 3 reader calls
