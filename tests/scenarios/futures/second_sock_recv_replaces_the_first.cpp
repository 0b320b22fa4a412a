// One waiter per descriptor: a second sock_recv replaces the first's reader; the first never
// completes.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::watched;

LOOPLAB_SCENARIO(second_sock_recv_replaces_the_first) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int turn = 0;
  auto one_turn = [&] {
    ++turn;
    run_one_turn(loop);
  };
  auto after = [&] { return "after turn " + std::to_string(turn) + ": "; };
  Future<std::string> first = loop.sock_recv(pair.left(), 100);
  Future<std::string> second = loop.sock_recv(pair.left(), 100);
  trace("two sock_recv waiting; watched descriptors " + std::to_string(watched(loop)));
  SocketPair::send(pair.right(), "x");
  one_turn();
  trace(after() + "second -> " + quoted(second.result()) + "; first done() -> " +
        py_bool(first.done()));
  one_turn();
  trace(after() + "watched descriptors " + std::to_string(watched(loop)));
  SocketPair::send(pair.right(), "y");
  one_turn();
  trace(after() + "first done() -> " + py_bool(first.done()));
  trace(std::string("first.cancel() -> ") + py_bool(first.cancel()));
  one_turn();
  trace(after() + "'y' is still there: " + quoted(SocketPair::receive(pair.left())));
  loop.close();
}

// expect: two sock_recv waiting; watched descriptors 1
// expect: after turn 1: second -> 'x'; first done() -> False
// expect: after turn 2: watched descriptors 0
// expect: after turn 3: first done() -> False
// expect: first.cancel() -> True
// expect: after turn 4: 'y' is still there: 'y'
