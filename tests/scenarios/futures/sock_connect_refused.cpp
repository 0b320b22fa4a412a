// sock_connect to a port nobody listens on fails with ECONNREFUSED (a ConnectionRefusedError,
// as Python's OSError becomes for that errno, whose text names the address)
// and leaves no writer behind.
// (Not under libkqueue: it reads the socket's error with getsockopt(SO_ERROR),
// which on Linux clears it, so the connect looks made; `make check-kqueue`
// leaves this scenario out, and SelectorTest.AnErrorWakesTheReaderAndTheWriter
// pins the difference.)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::errno_name;
using looplab::testing::trace;
using looplab::testing::watched;

LOOPLAB_SCENARIO(sock_connect_refused) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  socklen_t size = sizeof address;
  ::bind(probe, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(probe);  // bound a moment ago, never listened: nobody is there
  int client = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  Future<> connected =
      loop.sock_connect(client, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  try {
    loop.run_until_complete(connected);
  } catch (const looplab::ConnectionRefusedError& error) {
    trace("sock_connect raises ConnectionRefusedError errno=" + errno_name(error.code().value()));
    // str(error), with the port (a new one each run) written as PORT.
    std::string text = error.what();
    std::string port = std::to_string(ntohs(address.sin_port));
    text.replace(text.find(port), port.size(), "PORT");
    trace("str: " + text);
  }
  trace("watched descriptors " + std::to_string(watched(loop)));
  ::close(client);
  loop.close();
}

// expect: sock_connect raises ConnectionRefusedError errno=ECONNREFUSED
// expect: str: [Errno 111] Connect call failed ('127.0.0.1', PORT)
// expect: watched descriptors 0
