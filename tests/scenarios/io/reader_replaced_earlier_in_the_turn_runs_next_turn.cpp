// A reader replaced by an earlier callback of the turn does not run; its replacement runs in the
// next turn.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(reader_replaced_earlier_in_the_turn_runs_next_turn) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  SocketPair::send(pair.right(), "x");
  // Queued before the turn; the old reader is queued after it when select() reports the descriptor.
  loop.call_soon([&] {
    loop.add_reader(here, [&] { trace("new reader read " + quoted(SocketPair::receive(here))); });
    trace("replacer: add_reader(new_reader)");
  });
  loop.add_reader(here, [] { trace("old reader ran"); });
  run_one_turn(loop);
  trace("after turn 1");
  run_one_turn(loop);
  trace("after turn 2");
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  loop.close();
}

// expect: replacer: add_reader(new_reader)
// expect: after turn 1
// expect: new reader read 'x'
// expect: after turn 2
// expect: remove_reader -> True
