// echo_client.cpp: the load generator of the TCP echo benchmark (see README.md here).
//
// C connections to an echo server; each sends one message, reads the whole
// echo back, checks it byte for byte, and sends the next. One thread, one
// epoll set, non-blocking sockets, buffers made once: the client should cost
// the same for every server, so that the server is what is measured.
//
//   echo_client --port P [--host 127.0.0.1] --connections C [--message-size 100]
//               [--requests N | --seconds S] [--warmup-requests W] [--handshake]
//
// Prints one line of JSON on stdout:
//   {"connections":C,"message_size":100,"requests":N,"elapsed_ns":T,"warmup_requests":W}
// where T covers the N timed requests only (not connecting, the warm-up or
// closing). Exits 1 with a message on stderr if an echo differs from what was
// sent, a connection closes early, or the server stops answering.
//
// --handshake is for a driver that samples the server's CPU time exactly
// around the timed part: after connecting and the warm-up the client prints
// "READY" on stdout and waits for a line on stdin; after printing the JSON it
// waits for another line (or end of file) before closing the connections.
//
// Plain Linux, no dependencies:
//   g++ -std=c++20 -O2 -Wall -Wextra -Werror echo_client.cpp -o echo_client
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// How long the server may stay silent while requests are in flight before
// the client gives up (so that a stuck server cannot hang a benchmark run).
constexpr int kStallTimeoutMs = 10'000;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "echo_client: %s\n", message.c_str());
  std::exit(1);
}

[[noreturn]] void fail_errno(const std::string& what) { fail(what + ": " + std::strerror(errno)); }

struct Options {
  std::string host = "127.0.0.1";
  std::string port;
  std::size_t connections = 1;
  std::size_t message_size = 100;
  std::uint64_t requests = 10'000;
  double seconds = 0;  // > 0: run for this long instead of a fixed count
  std::uint64_t warmup_requests = 0;
  bool handshake = false;
};

std::uint64_t parse_count(const char* flag, const char* text, std::uint64_t minimum) {
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value < minimum) {
    fail(std::string("bad value for ") + flag + ": '" + text + "'");
  }
  return value;
}

void usage_and_exit(int status) {
  std::fprintf(status == 0 ? stdout : stderr,
               "usage: echo_client --port P [--host 127.0.0.1] --connections C "
               "[--message-size 100]\n"
               "                   [--requests N | --seconds S] [--warmup-requests W] "
               "[--handshake]\n");
  std::exit(status);
}

Options parse_options(int argc, char** argv) {
  Options options;
  bool have_requests = false;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") usage_and_exit(0);
    if (flag == "--handshake") {
      options.handshake = true;
      continue;
    }
    if (i + 1 >= argc) usage_and_exit(2);
    const char* value = argv[++i];
    if (flag == "--port") {
      options.port = std::to_string(parse_count("--port", value, 1));
    } else if (flag == "--host") {
      options.host = value;
    } else if (flag == "--connections") {
      options.connections = parse_count("--connections", value, 1);
    } else if (flag == "--message-size") {
      options.message_size = parse_count("--message-size", value, 1);
    } else if (flag == "--requests") {
      options.requests = parse_count("--requests", value, 0);
      have_requests = true;
    } else if (flag == "--seconds") {
      char* end = nullptr;
      options.seconds = std::strtod(value, &end);
      if (end == value || *end != '\0' || !(options.seconds > 0)) {
        fail(std::string("bad value for --seconds: '") + value + "'");
      }
    } else if (flag == "--warmup-requests") {
      options.warmup_requests = parse_count("--warmup-requests", value, 0);
    } else {
      std::fprintf(stderr, "echo_client: unknown option %s\n", flag.c_str());
      usage_and_exit(2);
    }
  }
  if (options.port.empty()) usage_and_exit(2);
  if (have_requests && options.seconds > 0) fail("give --requests or --seconds, not both");
  return options;
}

// One connection and the request it has in flight. `out` holds the message
// being sent, `in` what has come back of it; both are allocated once.
struct Connection {
  int fd = -1;
  bool busy = false;         // a request is in flight
  bool want_write = false;   // EPOLLOUT is in the epoll set (only while send() would block)
  std::size_t sent = 0;      // bytes of `out` written so far
  std::size_t received = 0;  // bytes of the echo read so far
  std::vector<char> out;
  std::vector<char> in;
};

class Client {
 public:
  explicit Client(const Options& options) : options_(options) {}

  void connect_all() {
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd_ < 0) fail_errno("epoll_create1");
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* address = nullptr;
    int status = ::getaddrinfo(options_.host.c_str(), options_.port.c_str(), &hints, &address);
    if (status != 0) fail("cannot resolve " + options_.host + ": " + ::gai_strerror(status));

    connections_.resize(options_.connections);
    events_.resize(options_.connections);
    for (std::size_t i = 0; i < connections_.size(); ++i) {
      Connection& c = connections_[i];
      c.fd = ::socket(address->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (c.fd < 0) fail_errno("socket");
      // A blocking connect() keeps this simple; connecting is not timed.
      if (::connect(c.fd, address->ai_addr, address->ai_addrlen) != 0) {
        fail_errno("connect to " + options_.host + ":" + options_.port);
      }
      int one = 1;
      if (::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        fail_errno("setsockopt(TCP_NODELAY)");
      }
      if (::fcntl(c.fd, F_SETFL, ::fcntl(c.fd, F_GETFL) | O_NONBLOCK) != 0) fail_errno("fcntl");
      epoll_event event{};
      event.events = EPOLLIN;  // level-triggered: one recv() per readiness is enough
      event.data.u64 = i;
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c.fd, &event) != 0) fail_errno("epoll_ctl");
      c.out.resize(options_.message_size);
      c.in.resize(options_.message_size);
      for (std::size_t k = 0; k < c.out.size(); ++k) c.out[k] = static_cast<char>('a' + k % 26);
    }
    ::freeaddrinfo(address);
  }

  // Runs `count` requests over all connections (or, with a deadline, as many
  // as fit before it); returns how many completed.
  std::uint64_t run(std::uint64_t count, Clock::time_point deadline = Clock::time_point::max()) {
    target_ = count;
    deadline_ = deadline;
    issued_ = completed_ = 0;
    now_ = Clock::now();
    for (Connection& c : connections_) {
      if (!may_issue()) break;
      start_request(c);
    }
    while (in_flight_ > 0) {
      int ready = ::epoll_wait(epoll_fd_, events_.data(), static_cast<int>(events_.size()),
                               kStallTimeoutMs);
      if (ready < 0) {
        if (errno == EINTR) continue;
        fail_errno("epoll_wait");
      }
      if (ready == 0) fail("the server sent nothing for 10 s with requests in flight");
      if (deadline_ != Clock::time_point::max()) now_ = Clock::now();
      for (int k = 0; k < ready; ++k) {
        Connection& c = connections_[events_[k].data.u64];
        if ((events_[k].events & EPOLLOUT) != 0 && c.want_write) send_some(c);
        if ((events_[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) != 0) receive_some(c);
      }
    }
    return completed_;
  }

  // Half-closes every connection, waits for the server to close its side,
  // and closes: the server sees an orderly end of each connection.
  void close_all() {
    std::size_t open = 0;
    for (Connection& c : connections_) {
      if (::shutdown(c.fd, SHUT_WR) != 0) fail_errno("shutdown");
      ++open;
    }
    while (open > 0) {
      int ready = ::epoll_wait(epoll_fd_, events_.data(), static_cast<int>(events_.size()),
                               kStallTimeoutMs);
      if (ready < 0) {
        if (errno == EINTR) continue;
        fail_errno("epoll_wait");
      }
      if (ready == 0) fail("the server did not close its end within 10 s of our end of file");
      for (int k = 0; k < ready; ++k) {
        Connection& c = connections_[events_[k].data.u64];
        char byte;
        ssize_t n = ::recv(c.fd, &byte, 1, 0);
        if (n > 0) fail("the server sent data after the last request");
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n < 0) fail_errno("recv while closing");
        ::close(c.fd);  // also removes it from the epoll set
        c.fd = -1;
        --open;
      }
    }
    ::close(epoll_fd_);
  }

 private:
  bool may_issue() const {
    if (deadline_ != Clock::time_point::max()) return now_ < deadline_;
    return issued_ < target_;
  }

  void start_request(Connection& c) {
    ++issued_;
    ++in_flight_;
    c.busy = true;
    c.sent = c.received = 0;
    // Stamp the request's number into the message, so that a stale or
    // misplaced echo cannot match by accident.
    std::uint64_t stamp = ++sequence_;
    std::memcpy(c.out.data(), &stamp, std::min(sizeof stamp, c.out.size()));
    send_some(c);
  }

  void send_some(Connection& c) {
    while (c.sent < c.out.size()) {
      ssize_t n = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
      if (n > 0) {
        c.sent += static_cast<std::size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!c.want_write) watch(c, EPOLLIN | EPOLLOUT);
        c.want_write = true;
        return;
      } else {
        fail_errno("send");
      }
    }
    if (c.want_write) watch(c, EPOLLIN);
    c.want_write = false;
  }

  void receive_some(Connection& c) {
    if (!c.busy) {
      char byte;
      ssize_t n = ::recv(c.fd, &byte, 1, 0);
      if (n > 0) fail("the server sent data that was not an echo of a request");
      if (n == 0) fail("the server closed a connection early");
      if (errno == EAGAIN || errno == EINTR) return;
      fail_errno("recv");
    }
    ssize_t n = ::recv(c.fd, c.in.data() + c.received, c.in.size() - c.received, 0);
    if (n == 0) fail("the server closed a connection early");
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
      fail_errno("recv");
    }
    c.received += static_cast<std::size_t>(n);
    // Large messages are read while still being sent, so that neither side
    // blocks on a full buffer; an echo cannot run ahead of what was sent.
    if (c.received > c.sent) fail("the server sent back bytes that were not sent yet");
    if (c.received < c.in.size()) return;
    if (std::memcmp(c.in.data(), c.out.data(), c.in.size()) != 0) {
      fail("an echo differs from the message sent");
    }
    c.busy = false;
    --in_flight_;
    ++completed_;
    if (may_issue()) start_request(c);
  }

  void watch(Connection& c, std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = static_cast<std::uint64_t>(&c - connections_.data());
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &event) != 0) fail_errno("epoll_ctl");
  }

  const Options& options_;
  int epoll_fd_ = -1;
  std::vector<Connection> connections_;
  std::vector<epoll_event> events_;
  std::uint64_t target_ = 0;
  std::uint64_t issued_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t in_flight_ = 0;
  std::uint64_t sequence_ = 0;
  Clock::time_point deadline_ = Clock::time_point::max();
  Clock::time_point now_{};
};

// --handshake: one line from the driver (or end of file) lets us go on.
void wait_for_go() {
  char line[64];
  if (std::fgets(line, sizeof line, stdin) == nullptr && std::ferror(stdin)) fail("reading stdin");
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parse_options(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);  // a closed connection is an error we report, not a signal

  Client client(options);
  client.connect_all();
  if (options.warmup_requests > 0) client.run(options.warmup_requests);
  if (options.handshake) {
    std::printf("READY\n");
    std::fflush(stdout);
    wait_for_go();
  }

  Clock::time_point start = Clock::now();
  std::uint64_t done =
      options.seconds > 0
          ? client.run(0, start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.seconds)))
          : client.run(options.requests);
  auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start);

  std::printf(
      "{\"connections\":%zu,\"message_size\":%zu,\"requests\":%llu,\"elapsed_ns\":%lld,"
      "\"warmup_requests\":%llu}\n",
      options.connections, options.message_size, static_cast<unsigned long long>(done),
      static_cast<long long>(elapsed.count()),
      static_cast<unsigned long long>(options.warmup_requests));
  std::fflush(stdout);
  if (options.handshake) wait_for_go();
  client.close_all();
  return 0;
}
