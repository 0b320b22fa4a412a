// sock_recv with nothing to read waits with a reader; its done callback removes the reader.
#include "scenarios/futures/futures_trace.hpp"

using namespace std::chrono_literals;
using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::trace_at;
using looplab::testing::watched;

LOOPLAB_SCENARIO(sock_recv_waits_for_readiness) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  trace(std::string("sock_recv(100): done() -> ") + py_bool(received.done()) +
        "; watched descriptors " + std::to_string(watched(loop)));
  received.add_done_callback([&](Future<std::string>& f) {
    trace_at(loop, "done callback: result " + quoted(f.result()) + ", watched descriptors " +
                       std::to_string(watched(loop)));
  });
  run_one_turn(loop);
  trace(std::string("after one turn: done() -> ") + py_bool(received.done()));
  loop.call_later(100ms, [&] {
    trace_at(loop, "timer: peer sends 'pong'");
    SocketPair::send(pair.right(), "pong");
  });
  trace("run_until_complete -> " + quoted(loop.run_until_complete(received)));
  trace("watched descriptors " + std::to_string(watched(loop)));
  loop.close();
}

// expect: sock_recv(100): done() -> False; watched descriptors 1
// expect: after one turn: done() -> False
// expect: t=0.100 timer: peer sends 'pong'
// expect: t=0.100 done callback: result 'pong', watched descriptors 0
// expect: run_until_complete -> 'pong'
// expect: watched descriptors 0
