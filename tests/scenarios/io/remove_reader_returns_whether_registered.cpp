// remove_reader returns True if a reader was registered, else False; a removed reader never runs.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(remove_reader_returns_whether_registered) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  int there = pair.right();
  loop.add_reader(here, [] { trace("reader ran"); });
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  trace(std::string("remove_reader again -> ") + py_bool(loop.remove_reader(here)));
  trace(std::string("remove_writer (never added) -> ") + py_bool(loop.remove_writer(here)));
  trace(std::string("remove_reader of the other end (never added) -> ") +
        py_bool(loop.remove_reader(there)));
  SocketPair::send(there, "x");
  run_one_turn(loop);
  trace("one turn with data waiting: the removed reader did not run");
  loop.close();
}

// expect: remove_reader -> True
// expect: remove_reader again -> False
// expect: remove_writer (never added) -> False
// expect: remove_reader of the other end (never added) -> False
// expect: one turn with data waiting: the removed reader did not run
