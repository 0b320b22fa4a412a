// A reader runs each time in the one context copied by add_reader: its changes persist between
// calls, and neither the caller's later changes nor the reader's own leak across.
#include "scenarios/io/io_trace.hpp"

using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;

static looplab::ContextVar<int> calls("calls", 0);

LOOPLAB_SCENARIO(reader_context_persists_between_calls) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  calls.set(10);
  loop.add_reader(here, [] {  // never reads: runs every turn
    calls.set(calls.get() + 1);
    trace("reader sees calls = " + std::to_string(calls.get()));
  });
  calls.set(100);  // after add_reader: the reader must not see this
  SocketPair::send(pair.right(), "x");
  for (int i = 0; i < 3; ++i) run_one_turn(loop);
  trace("main sees calls = " + std::to_string(calls.get()));
  loop.remove_reader(here);
  loop.close();
}

// expect: reader sees calls = 11
// expect: reader sees calls = 12
// expect: reader sees calls = 13
// expect: main sees calls = 100
