// A reader runs in the first turn in which its descriptor is readable, not before.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(reader_runs_when_readable) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  loop.add_reader(here,
                  [&] { trace_at(loop, "reader read " + quoted(SocketPair::receive(here))); });
  trace("turn 1: nothing written yet");
  run_one_turn(loop);
  SocketPair::send(pair.right(), "ping");
  trace("turn 2: 'ping' written");
  run_one_turn(loop);
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  loop.close();
}

// expect: turn 1: nothing written yet
// expect: turn 2: 'ping' written
// expect: t=0.000 reader read 'ping'
// expect: remove_reader -> True
