// Removing a descriptor's writer leaves its reader registered, and the reverse.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(remove_writer_keeps_reader) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  auto reader = [&] { trace("reader read " + quoted(SocketPair::receive(here))); };
  auto writer = [] { trace("writer ran"); };
  loop.add_reader(here, reader);
  loop.add_writer(here, writer);
  trace(std::string("remove_writer -> ") + py_bool(loop.remove_writer(here)));
  SocketPair::send(pair.right(), "ping");
  run_one_turn(loop);
  trace(std::string("remove_writer again -> ") + py_bool(loop.remove_writer(here)));
  loop.add_writer(here, writer);
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(here)));
  SocketPair::send(pair.right(), "pong");
  run_one_turn(loop);
  trace(std::string("remove_writer -> ") + py_bool(loop.remove_writer(here)));
  trace(std::string("remove_reader again -> ") + py_bool(loop.remove_reader(here)));
  loop.close();
}

// expect: remove_writer -> True
// expect: reader read 'ping'
// expect: remove_writer again -> False
// expect: remove_reader -> True
// expect: writer ran
// expect: remove_writer -> True
// expect: remove_reader again -> False
