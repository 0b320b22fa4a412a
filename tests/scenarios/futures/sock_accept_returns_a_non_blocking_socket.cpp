// sock_accept waits with a reader for a client, and the accepted socket is non-blocking.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;
using looplab::testing::watched;

LOOPLAB_SCENARIO(sock_accept_returns_a_non_blocking_socket) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  socklen_t size = sizeof address;
  ::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size);
  ::listen(listener, 16);
  Future<int> accepted = loop.sock_accept(listener);
  trace(std::string("sock_accept: done() -> ") + py_bool(accepted.done()) +
        "; watched descriptors " + std::to_string(watched(loop)));
  int client = ::socket(AF_INET, SOCK_STREAM, 0);  // blocking: the kernel completes it
  if (::connect(client, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
    trace("a client connected");
  }
  run_one_turn(loop);
  trace(std::string("after one turn: done() -> ") + py_bool(accepted.done()));
  int connection = accepted.result();
  trace(std::string("accepted socket non-blocking -> ") +
        py_bool((::fcntl(connection, F_GETFL) & O_NONBLOCK) != 0));
  run_one_turn(loop);
  trace("after the next turn: watched descriptors " + std::to_string(watched(loop)));
  ::close(connection);
  ::close(client);
  ::close(listener);
  loop.close();
}

// expect: sock_accept: done() -> False; watched descriptors 1
// expect: a client connected
// expect: after one turn: done() -> True
// expect: accepted socket non-blocking -> True
// expect: after the next turn: watched descriptors 0
