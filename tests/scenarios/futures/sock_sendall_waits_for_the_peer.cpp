// sock_sendall of more than the socket buffers hold waits with a writer until the peer drains it.
//
// asyncio sends once per writable event, looplab until the kernel says
// EAGAIN: how much goes out per turn differs, so the trace shows totals.
#include <sys/socket.h>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::SocketPair;
using looplab::testing::trace;
using looplab::testing::watched;

LOOPLAB_SCENARIO(sock_sendall_waits_for_the_peer) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  constexpr std::size_t kSize = 4 * 1024 * 1024;
  std::string data(kSize, '\0');
  for (std::size_t i = 0; i < kSize; ++i) data[i] = static_cast<char>(i % 251 * 7 % 251);
  Future<> sent = loop.sock_sendall(pair.left(), data);
  trace(std::string("sock_sendall(4 MiB): done() -> ") + py_bool(sent.done()) +
        "; watched descriptors " + std::to_string(watched(loop)));
  run_one_turn(loop);
  trace(std::string("after one turn, nobody reading: done() -> ") + py_bool(sent.done()));

  std::string received;
  loop.add_reader(pair.right(), [&] {
    char chunk[65536];
    ssize_t n = 0;
    while ((n = ::recv(pair.right(), chunk, sizeof chunk, 0)) > 0) {
      received.append(chunk, static_cast<std::size_t>(n));
    }
  });
  trace("peer reader added");
  loop.run_until_complete(sent);
  trace("run_until_complete -> None");
  for (int turn = 0; turn < 100'000 && received.size() < data.size(); ++turn) run_one_turn(loop);
  loop.remove_reader(pair.right());
  trace("peer received " + std::to_string(received.size()) +
        " bytes, intact: " + py_bool(received == data));
  trace("watched descriptors " + std::to_string(watched(loop)));
  loop.close();
}

// expect: sock_sendall(4 MiB): done() -> False; watched descriptors 1
// expect: after one turn, nobody reading: done() -> False
// expect: peer reader added
// expect: run_until_complete -> None
// expect: peer received 4194304 bytes, intact: True
// expect: watched descriptors 0
