// tcp_echo_server.cpp: a TCP echo server on looplab's add_reader/add_writer,
// shaped like an asyncio Protocol. The looplab server of the TCP echo
// benchmark (comparisons/echo/README.md):
//
//   tcp_echo_server_s04 [--port 0]
//
// Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0, the
// default, lets the kernel choose) and the selector's name on stderr; serves
// until SIGTERM or SIGINT, then exits 0.
//
// asyncio's loop.create_server() hides three pieces that are spelled out
// here: a listening socket whose reader accepts connections; per connection,
// a transport whose reader receives bytes and hands them to the protocol's
// data_received(); and transport.write(), which sends at once and watches for
// "writable" only while the kernel's buffer is full.
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
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "looplab/event_loop.hpp"

using looplab::EventLoop;

class Server;

// One client: asyncio's _SelectorSocketTransport and an echo Protocol in one.
class Connection {
 public:
  Connection(EventLoop& loop, Server& server, int fd) : loop_(loop), server_(server), fd_(fd) {}
  ~Connection() { ::close(fd_); }

  void start(std::span<char> read_buffer) {
    loop_.add_reader(fd_, [this, read_buffer] { read_ready(read_buffer); });
  }

  // Stops watching the socket (before it is closed: a closed descriptor must
  // not stay registered) and forgets what was still to be sent.
  void abort() {
    loop_.remove_reader(fd_);
    loop_.remove_writer(fd_);
    pending_.clear();
    pending_sent_ = 0;
  }

 private:
  // [echo_transport]
  // The socket is readable: one recv() per turn, as asyncio's _read_ready.
  void read_ready(std::span<char> buffer) {
    ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (n > 0) {
      data_received(buffer.first(static_cast<std::size_t>(n)));
    } else if (n == 0) {
      close();  // eof_received(): the client has finished; echo what is left, then close
    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      force_close();
    }
  }

  // The protocol: send every chunk straight back.
  void data_received(std::span<const char> data) { write(data); }

  // transport.write(): try the kernel first; buffer only what it did not take.
  void write(std::span<const char> data) {
    if (pending_.empty()) {
      ssize_t sent = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        force_close();
        return;
      }
      data = data.subspan(sent > 0 ? static_cast<std::size_t>(sent) : 0);
      if (data.empty()) return;
      loop_.add_writer(fd_, [this] { write_ready(); });
    }
    // Data already waiting goes first, so new bytes queue up behind it.
    pending_.insert(pending_.end(), data.begin(), data.end());
  }

  // The socket is writable again: send what is buffered; stop watching once drained.
  void write_ready() {
    std::span<const char> rest = std::span<const char>(pending_).subspan(pending_sent_);
    ssize_t sent = ::send(fd_, rest.data(), rest.size(), MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) force_close();
      return;
    }
    pending_sent_ += static_cast<std::size_t>(sent);
    if (pending_sent_ < pending_.size()) return;
    pending_.clear();
    pending_sent_ = 0;
    loop_.remove_writer(fd_);
    if (closing_) loop_.call_soon([this] { connection_lost(); });
  }
  // [echo_transport]

  // transport.close(): no more reading; connection_lost() once the buffer is sent.
  void close() {
    closing_ = true;
    loop_.remove_reader(fd_);
    if (pending_.empty()) loop_.call_soon([this] { connection_lost(); });
  }

  // An error: drop everything now.
  void force_close() {
    abort();
    loop_.call_soon([this] { connection_lost(); });
  }

  // As in asyncio, the end comes in a later callback, never in the middle of
  // one: here the server destroys this Connection, which closes the socket.
  void connection_lost();

  EventLoop& loop_;
  Server& server_;
  int fd_;
  bool closing_ = false;
  std::vector<char> pending_;     // what the kernel has not taken yet,
  std::size_t pending_sent_ = 0;  // except its first pending_sent_ bytes, sent since
};

class Server {
 public:
  explicit Server(EventLoop& loop) : loop_(loop) {}

  // Listens on 127.0.0.1:port; returns the port, or -1 with errno set.
  int listen(int port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener_ < 0) return -1;
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener_, SOMAXCONN) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return -1;
    }
    loop_.add_reader(listener_, [this] { accept_connections(); });
    return ntohs(address.sin_port);
  }

  void forget(int fd) { connections_.erase(fd); }  // destroys the Connection

  // After run_forever(): stop watching, then close, every socket.
  void close() {
    for (auto& [fd, connection] : connections_) connection->abort();
    connections_.clear();
    loop_.remove_reader(listener_);
    ::close(listener_);
  }

 private:
  // [echo_accept]
  // The listening socket is readable: accept until the kernel's queue is empty.
  void accept_connections() {
    for (;;) {
      int fd = ::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) std::perror("tcp_echo_server: accept4");
        return;
      }
      int one = 1;  // small replies must leave at once, not wait for Nagle's algorithm
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto connection = std::make_unique<Connection>(loop_, *this, fd);
      // Every connection reads into the same buffer: data_received() sends or
      // copies the bytes before any other read can overwrite them.
      connection->start(read_buffer_);
      connections_[fd] = std::move(connection);
    }
  }
  // [echo_accept]

  EventLoop& loop_;
  int listener_ = -1;
  std::vector<char> read_buffer_ =
      std::vector<char>(std::size_t{256} * 1024);  // asyncio's max_size
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
};

void Connection::connection_lost() { server_.forget(fd_); }  // `this` is gone after this line

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
    std::perror("tcp_echo_server: signalfd");
    return 1;
  }

  EventLoop loop;
  loop.add_reader(signal_fd, [&loop, signal_fd] {
    signalfd_siginfo info;
    if (::read(signal_fd, &info, sizeof info) == sizeof info) loop.stop();
  });

  Server server(loop);
  int bound = server.listen(port);
  if (bound < 0) {
    std::perror("tcp_echo_server: listen on 127.0.0.1");
    return 1;
  }
  std::printf("PORT %d\n", bound);
  std::fflush(stdout);
  std::fprintf(stderr, "tcp_echo_server: selector %s\n", loop.selector().name());

  loop.run_forever();
  server.close();
  loop.remove_reader(signal_fd);
  ::close(signal_fd);
  loop.close();
  return 0;
}
