// A reader may remove itself while it runs: it returns True and the reader never runs again.
#include "scenarios/io/io_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::SocketPair;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(remove_reader_inside_its_own_callback) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  int calls = 0;
  loop.add_reader(here, [&] {
    ++calls;
    trace_at(loop, "reader read " + quoted(SocketPair::receive(here)));
    trace_at(loop, std::string("reader removes itself: remove_reader -> ") +
                       py_bool(loop.remove_reader(here)));
  });
  SocketPair::send(pair.right(), "first");
  loop.call_later(100ms, [&] {
    trace_at(loop, "timer writes 'second'");
    SocketPair::send(pair.right(), "second");
  });
  loop.call_later(200ms, [&] {
    trace_at(loop, "timer: " + std::to_string(calls) + " reader call(s); remove_reader -> " +
                       py_bool(loop.remove_reader(here)));
    loop.stop();
  });
  loop.run_forever();
  loop.close();
}

// expect: t=0.000 reader read 'first'
// expect: t=0.000 reader removes itself: remove_reader -> True
// expect: t=0.100 timer writes 'second'
// expect: t=0.200 timer: 1 reader call(s); remove_reader -> False
