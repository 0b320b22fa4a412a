// Echo over TCP under faults: several clients stream bytes through an echo
// server's tasks at once, and each gets back exactly what it sent, whatever
// the schedule does to the loop's recv() and send() (short transfers,
// EAGAIN where the kernel said ready, EINTR). Run by faults_sNN under the
// "stream" schedule; without one it is a plain echo test.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "futures/support.hpp"
#include "looplab/testing/faults.hpp"
#include "tasks/support.hpp"

namespace looplab {
namespace {

using testing::Fd;
using testing::TcpListener;
namespace faults = testing::faults;

constexpr int kClients = 16;
constexpr std::size_t kBytesPerClient = 1024 * 1024;

// What client `n` sends: bytes no other client sends in the same order.
std::string payload(int n) {
  std::string data(kBytesPerClient, '\0');
  std::uint64_t x = 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(n + 1);
  for (char& c : data) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  return data;
}

// The server's side of one connection: send back what arrives, until EOF.
Coro<void> echo(EventLoop* loop, int fd) {
  Fd connection(fd);
  while (true) {
    std::string data = co_await loop->sock_recv(fd, 16 * 1024);
    if (data.empty()) break;
    co_await loop->sock_sendall(fd, std::move(data));
  }
}

Coro<void> send_in_chunks(EventLoop* loop, int fd, std::string data) {
  for (std::size_t at = 0; at < data.size(); at += 10000) {
    co_await loop->sock_sendall(fd, data.substr(at, 10000));
  }
  ::shutdown(fd, SHUT_WR);
}

// One client: send its payload while reading the echo; returns what came back.
Coro<std::string> client(EventLoop* loop, int fd, std::string data) {
  Task<void> sending = create_task(*loop, send_in_chunks(loop, fd, data));
  std::string received;
  while (true) {
    std::string part = co_await loop->sock_recv(fd, 7000);
    if (part.empty()) break;  // the server closed after our EOF
    received += part;
  }
  co_await sending;
  co_return received;
}

Coro<int> exchange(EventLoop* loop) {
  TcpListener listener;
  std::vector<Fd> clients;
  std::vector<Task<std::string>> results;
  for (int n = 0; n < kClients; ++n) {
    clients.push_back(testing::tcp_socket());
    int fd = clients.back().get();
    Future<void> connecting = loop->sock_connect(fd, listener.addr(), sizeof listener.address);
    Future<int> accepting = loop->sock_accept(listener.fd.get());
    int accepted = co_await accepting;
    co_await connecting;
    create_task(*loop, echo(loop, accepted));
    results.push_back(create_task(*loop, client(loop, fd, payload(n))));
  }
  int intact = 0;
  for (int n = 0; n < kClients; ++n) {
    std::string received = co_await results[static_cast<std::size_t>(n)];
    if (received == payload(n)) ++intact;
  }
  co_return intact;
}

TEST(StreamIntegrity, EveryClientGetsBackExactlyWhatItSent) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::uint64_t before = faults::injected();
  Task<int> exchanging = create_task(loop, exchange(&loop));
  EXPECT_EQ(loop.run_until_complete(exchanging), kClients);
  std::printf("faults injected during the exchange: %llu\n",
              static_cast<unsigned long long>(faults::injected() - before));
}

}  // namespace
}  // namespace looplab
