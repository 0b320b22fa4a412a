// The loop waits for a timer and a reader at once: a timer's write wakes the reader at its time.
#include "scenarios/io/io_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::quoted;
using looplab::testing::SocketPair;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(timer_writes_reader_reads) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  loop.add_reader(here, [&] {
    trace_at(loop, "reader read " + quoted(SocketPair::receive(here)));
    loop.remove_reader(here);
    loop.stop();
  });
  loop.call_later(250ms, [&] {
    trace_at(loop, "timer writes 'ping'");
    SocketPair::send(pair.right(), "ping");
  });
  trace_at(loop, "run_forever");
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.000 run_forever
// expect: t=0.250 timer writes 'ping'
// expect: t=0.250 reader read 'ping'
// expect: t=0.250 run_forever returned
