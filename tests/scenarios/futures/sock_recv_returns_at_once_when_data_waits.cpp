// sock_recv with data already waiting completes without waiting: no future to wait on, no reader.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::SocketPair;
using looplab::testing::trace;

LOOPLAB_SCENARIO(sock_recv_returns_at_once_when_data_waits) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  SocketPair::send(pair.right(), "ping");
  trace("peer sent 'ping'");
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  trace(std::string("sock_recv(100): completed without waiting -> ") + py_bool(received.done()));
  if (received.done()) trace("result -> " + quoted(received.result()));
  trace(std::string("remove_reader -> ") + py_bool(loop.remove_reader(pair.left())));
  loop.close();
}

// expect: peer sent 'ping'
// expect: sock_recv(100): completed without waiting -> True
// expect: result -> 'ping'
// expect: remove_reader -> False
