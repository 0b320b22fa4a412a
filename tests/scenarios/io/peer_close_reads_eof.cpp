// When the peer closes, the descriptor becomes readable and the reader reads end of file.
#include <unistd.h>

#include "scenarios/io/io_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::SocketPair;
using looplab::testing::trace_at;

LOOPLAB_SCENARIO(peer_close_reads_eof) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  loop.add_reader(here, [&] {
    char buffer[4096];
    ssize_t n = ::read(here, buffer, sizeof buffer);
    if (n > 0) {
      trace_at(loop, "reader read " + quoted(std::string(buffer, static_cast<std::size_t>(n))));
      return;
    }
    trace_at(loop,
             std::string("reader read EOF; remove_reader -> ") + py_bool(loop.remove_reader(here)));
    loop.stop();
  });
  loop.call_later(100ms, [&] {
    trace_at(loop, "timer: send 'hello'");
    SocketPair::send(pair.right(), "hello");
  });
  loop.call_later(200ms, [&] {
    trace_at(loop, "timer: close the other end");
    pair.close_right();
  });
  loop.run_forever();
  trace_at(loop, "run_forever returned");
  loop.close();
}

// expect: t=0.100 timer: send 'hello'
// expect: t=0.100 reader read 'hello'
// expect: t=0.200 timer: close the other end
// expect: t=0.200 reader read EOF; remove_reader -> True
// expect: t=0.200 run_forever returned
