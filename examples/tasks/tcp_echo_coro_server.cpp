// tcp_echo_coro_server.cpp: the TCP echo server again, written with tasks.
//
//   tcp_echo_coro_server_s06 [--port 0]
//
// Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0, the
// default, lets the kernel choose) and the selector's name on stderr; serves
// until SIGTERM or SIGINT, then exits 0. The same program as
// examples/pollers/tcp_echo_server.cpp, and the looplab twin of asyncio's
// streams server (comparisons/echo/asyncio_streams_server.py).
//
// Chapter 4's server was callbacks: a reader per socket and the state of
// each connection kept in an object between calls. Here each connection is
// a task, and its state is the local variables of a loop that reads as if it
// blocked:
//
//   while (true) {
//     std::string data = co_await loop.sock_recv(fd, 65536);
//     if (data.empty()) break;
//     co_await loop.sock_sendall(fd, std::move(data));
//   }
//
// Each co_await hands the loop a Future and suspends the task until it is
// done (sock_recv and sock_sendall try the system call first and wait only
// if it would block). One task accepts connections and starts a task for
// each, and run() is the entry point, as asyncio.run() is: it makes the
// loop, runs the main task, then cancels every task still running and closes
// the loop. To stop, a signal cancels the main task.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <utility>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/task.hpp"

using looplab::CancelledError;
using looplab::Coro;
using looplab::EventLoop;
using looplab::OSError;

// Owns a descriptor: closes it when the scope ends, however it ends. In a
// task that includes the CancelledError that cancelling it throws in at its
// co_await, so a cancelled connection closes its socket too.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { ::close(fd_); }
  int get() const { return fd_; }

 private:
  int fd_;
};

// [echo_coro]
// One client, one task: receive what it sends and send it back, until it
// closes its end ("" from sock_recv) or the connection fails.
Coro<void> echo(int fd) {  // by value: a task's parameters live in its frame
  Descriptor connection(fd);
  EventLoop& loop = looplab::get_running_loop();
  try {
    while (true) {
      std::string data = co_await loop.sock_recv(fd, 65536);
      if (data.empty()) break;
      co_await loop.sock_sendall(fd, std::move(data));
    }
  } catch (const OSError&) {
    // The client went away (ECONNRESET, EPIPE): nobody left to echo to.
  }
}
// [echo_coro]

// A listening socket on 127.0.0.1:port (0: any free port); sets `port` to
// the one it got. Throws OSError if the system says no.
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

// [serve_coro]
// The main task: listen, then accept connections and start a task for each,
// until a signal cancels it.
Coro<void> serve(int port, int signal_fd) {
  EventLoop& loop = looplab::get_running_loop();
  Descriptor listener(listen_on(port));

  // SIGTERM or SIGINT: cancel this task (asyncio.run() does the same for
  // SIGINT). The CancelledError comes out of the co_await below, ends this
  // coroutine, and run() then cancels the connections' tasks.
  looplab::FutureBase& me = looplab::TaskBase::current()->as_future();
  loop.add_reader(signal_fd, [signal_fd, &me] {
    signalfd_siginfo info;
    if (::read(signal_fd, &info, sizeof info) == sizeof info) me.cancel();
  });
  struct StopWatching {  // a descriptor must not stay registered after this task
    EventLoop& loop;
    int fd;
    ~StopWatching() { loop.remove_reader(fd); }
  } stop_watching{loop, signal_fd};

  std::printf("PORT %d\n", port);
  std::fflush(stdout);
  std::fprintf(stderr, "tcp_echo_coro_server: selector %s\n", loop.selector().name());

  while (true) {
    int fd = co_await loop.sock_accept(listener.get());
    int one = 1;  // small replies must leave at once, not wait for Nagle's algorithm
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    looplab::create_task(loop, echo(fd));  // runs on its own; nobody needs to await it
  }
}
// [serve_coro]

int main(int argc, char** argv) {
  int port = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      port = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--port N]\n", argv[0]);
      return 2;
    }
  }

  // SIGTERM and SIGINT arrive as readable data on a signalfd, so stopping is
  // one more reader; they must be blocked so that they are not delivered.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  ::sigprocmask(SIG_BLOCK, &signals, nullptr);
  int signal_fd = ::signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd < 0) {
    std::perror("tcp_echo_coro_server: signalfd");
    return 1;
  }
  Descriptor signals_reader(signal_fd);

  try {
    looplab::run(serve(port, signal_fd));
  } catch (const CancelledError&) {
    // How serve() ends: cancelled by a signal. run() has cancelled the
    // connections' tasks, let them close their sockets, and closed the loop.
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tcp_echo_coro_server: %s\n", error.what());
    return 1;
  }
  return 0;
}
