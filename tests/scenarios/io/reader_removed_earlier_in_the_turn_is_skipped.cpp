// A reader already queued for this turn but removed by an earlier callback of the turn does not
// run.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(reader_removed_earlier_in_the_turn_is_skipped) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  SocketPair::send(pair.right(), "x");
  // Queued before the turn; the reader is queued after it when select() reports the descriptor.
  loop.call_soon([&] {
    trace(std::string("remover: remove_reader -> ") + py_bool(loop.remove_reader(here)));
  });
  loop.add_reader(here, [] { trace("reader ran"); });
  run_one_turn(loop);
  trace("after turn 1");
  run_one_turn(loop);
  trace("after turn 2");
  loop.close();
}

// expect: remover: remove_reader -> True
// expect: after turn 1
// expect: after turn 2
