// http_server_main.cpp: the example HTTP/1.1 server as a program.
//
//   http_server_sNN [--port 0] [--request-timeout-ms 10000]
//
// Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0, the
// default, lets the kernel choose), answers every request with
// "Hello, world!\n" (the benchmark's workload, as nginx's `return 200`), and
// on SIGTERM or SIGINT stops accepting, closes its connections and exits 0.
// Its twins: comparisons/http/asyncio_server.py (CPython and uvloop) and nginx.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "http_server.hpp"
#include "looplab/run.hpp"

using looplab::CancelledError;
using looplab::Coro;
using looplab::EventLoop;
using looplab::OSError;

namespace {

int listen_on(int& port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw OSError(errno, "socket()");
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(fd, SOMAXCONN) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    int error = errno;
    ::close(fd);
    throw OSError(error, "listen on 127.0.0.1");
  }
  port = ntohs(address.sin_port);
  return fd;
}

Coro<void> main_task(int port, looplab::http::Limits limits) {
  EventLoop& loop = looplab::get_running_loop();
  int listener = listen_on(port);
  looplab::http::HttpServer server(loop, looplab::http::hello, limits);
  // A signal cancels this task: serve() then cancels the connections.
  looplab::FutureBase& me = looplab::TaskBase::current()->as_future();
  loop.add_signal_handler(SIGTERM, [&me] { me.cancel(); });
  loop.add_signal_handler(SIGINT, [&me] { me.cancel(); });
  std::printf("PORT %d\n", port);
  std::fflush(stdout);
  std::fprintf(stderr, "http_server: selector %s\n", loop.selector().name());
  try {
    co_await server.serve(listener);
  } catch (...) {
    ::close(listener);
    std::fprintf(stderr, "http_server: %llu requests served\n",
                 static_cast<unsigned long long>(server.requests_served()));
    throw;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  looplab::http::Limits limits;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      port = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--request-timeout-ms") == 0 && i + 1 < argc) {
      limits.request_timeout = std::chrono::milliseconds(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--port N] [--request-timeout-ms MS]\n", argv[0]);
      return 2;
    }
  }
  try {
    looplab::run(main_task(port, limits));
  } catch (const CancelledError&) {
    return 0;  // stopped by a signal
  } catch (const std::exception& error) {
    std::fprintf(stderr, "http_server: %s\n", error.what());
    return 1;
  }
  return 0;
}
