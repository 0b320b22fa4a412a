// When one descriptor is readable and writable in a turn, its reader runs before its writer.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(reader_before_writer_on_one_fd) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  loop.add_writer(here, [] { trace("writer ran"); });  // the writer is added first
  loop.add_reader(here, [&] { trace("reader read " + quoted(SocketPair::receive(here))); });
  SocketPair::send(pair.right(), "x");
  run_one_turn(loop);
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  trace(std::string("remove_writer -> ") + py_bool(loop.remove_writer(here)));
  loop.close();
}

// expect: reader read 'x'
// expect: writer ran
// expect: remove_reader -> True
// expect: remove_writer -> True
