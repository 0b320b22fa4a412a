// A second add_reader for the same descriptor replaces the first: only the second runs.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(second_add_reader_replaces_first) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  loop.add_reader(here, [] { trace("first ran"); });
  loop.add_reader(here, [&] { trace("second read " + quoted(SocketPair::receive(here))); });
  SocketPair::send(pair.right(), "x");
  run_one_turn(loop);
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  trace(std::string("remove_reader again -> ") + py_bool(loop.remove_reader(here)));
  loop.close();
}

// expect: second read 'x'
// expect: remove_reader -> True
// expect: remove_reader again -> False
