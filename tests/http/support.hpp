// Helpers of the HTTP server's tests (tests/http, tests/faults): a server in
// the test's loop, and clients that talk to it as tasks of that loop.
#pragma once

#include <string>

#include "futures/support.hpp"
#include "http_server.hpp"
#include "tasks/support.hpp"

namespace looplab::testing {

using http::Handler;
using http::HttpServer;
using http::Limits;

// A server on 127.0.0.1 in `loop`, serving while the test runs.
struct Served {
  EventLoop& loop;
  TcpListener listener;
  HttpServer server;
  Task<void> serving;

  explicit Served(EventLoop& l, Limits limits = {}, Handler handler = http::hello)
      : loop(l),
        server(l, std::move(handler), limits),
        serving(create_task(l, server.serve(listener.fd.get()))) {}
  ~Served() {
    serving.cancel();
    try {
      loop.run_until_complete(serving);
    } catch (const CancelledError&) {
      // how serve() ends
    }
  }
};

inline Coro<int> connect_to(EventLoop* loop, const TcpListener* listener, Fd* out) {
  *out = testing::tcp_socket();
  Future<void> connecting =
      loop->sock_connect(out->get(), listener->addr(), sizeof listener->address);
  co_await connecting;
  co_return out->get();
}

// Sends `raw`, then reads until `responses` bodies of "Hello, world!\n" or
// the server closes; returns everything read.
inline Coro<std::string> exchange(EventLoop* loop, int fd, std::string raw, int responses) {
  Future<void> sending = loop->sock_sendall(fd, raw);
  co_await sending;
  std::string got;
  std::size_t seen = 0;
  while (static_cast<int>(seen) < responses) {
    Future<std::string> receiving = loop->sock_recv(fd, 65536);
    std::string part = co_await receiving;
    if (part.empty()) break;
    got += part;
    seen = 0;
    for (std::size_t at = got.find("Hello, world!\n"); at != std::string::npos;
         at = got.find("Hello, world!\n", at + 1)) {
      ++seen;
    }
  }
  co_return got;
}

// Reads until the server closes; returns everything read.
inline Coro<std::string> read_to_end(EventLoop* loop, int fd) {
  std::string got;
  while (true) {
    Future<std::string> receiving = loop->sock_recv(fd, 65536);
    std::string part = co_await receiving;
    if (part.empty()) co_return got;
    got += part;
  }
}

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace looplab::testing
