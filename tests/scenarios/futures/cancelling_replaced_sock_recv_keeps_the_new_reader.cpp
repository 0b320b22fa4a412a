// Cancelling a sock_recv whose reader was replaced leaves the new reader alone.
//
// The done callback that removes a sock_recv's reader removes it only if the
// handle it registered is still there (not cancelled by a replacement), as
// asyncio's _sock_read_done does.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::watched;

LOOPLAB_SCENARIO(cancelling_replaced_sock_recv_keeps_the_new_reader) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<std::string> first = loop.sock_recv(pair.left(), 100);
  Future<std::string> second = loop.sock_recv(pair.left(), 100);
  trace(std::string("first.cancel() -> ") + py_bool(first.cancel()));
  run_one_turn(loop);
  trace("after one turn: watched descriptors " + std::to_string(watched(loop)) +
        "; second done() -> " + py_bool(second.done()));
  SocketPair::send(pair.right(), "for the second");
  trace("run_until_complete(second) -> " + quoted(loop.run_until_complete(second)));
  trace("watched descriptors " + std::to_string(watched(loop)));
  loop.close();
}

// expect: first.cancel() -> True
// expect: after one turn: watched descriptors 1; second done() -> False
// expect: run_until_complete(second) -> 'for the second'
// expect: watched descriptors 0
