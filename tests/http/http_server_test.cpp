// The example HTTP server (examples/http/) driven by clients in the same
// loop, on the virtual clock: keep-alive, pipelining, bodies, the errors it
// answers, the request deadline, a client that does not read, and running
// out of descriptors (tests/faults/http_accept_test.cpp: a real EMFILE
// under the sanitizers leaves them no descriptor for their own checks).
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstdio>
#include <string>
#include <vector>

#include "http/support.hpp"

namespace looplab::http {
namespace {

using namespace std::chrono_literals;
using testing::connect_to;
using testing::count;
using testing::exchange;
using testing::Fd;
using testing::read_to_end;
using testing::Served;

TEST(HttpServer, AnswersAGetAndKeepsTheConnection) {
  testing::TestLoop t;
  Served s(t.loop);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  std::string first = t.loop.run_until_complete(
      create_task(t.loop, exchange(&t.loop, fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1)));
  EXPECT_EQ(first.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << first;
  EXPECT_NE(first.find("Content-Length: 14\r\n"), std::string::npos);
  EXPECT_EQ(first.find("Connection: close"), std::string::npos);
  std::string second = t.loop.run_until_complete(
      create_task(t.loop, exchange(&t.loop, fd, "GET /again HTTP/1.1\r\nHost: x\r\n\r\n", 1)));
  EXPECT_EQ(count(second, "200 OK"), 1u);
  EXPECT_EQ(s.server.requests_served(), 2u);
  EXPECT_EQ(s.server.open_connections(), 1u);
}

TEST(HttpServer, PipelinedRequestsAreAnsweredInOrderInOneWrite) {
  testing::TestLoop t;
  Handler echo_target = [](const Request& r, std::string_view) {
    return Response{200, "text/plain", r.target + "\n"};
  };
  Served s(t.loop, {}, echo_target);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  std::string got = t.loop.run_until_complete(
      create_task(t.loop, exchange(&t.loop, fd,
                                   "GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\nGET /3 "
                                   "HTTP/1.1\r\nConnection: close\r\n\r\n",
                                   99)));
  std::size_t one = got.find("/1\n"), two = got.find("/2\n"), three = got.find("/3\n");
  ASSERT_NE(three, std::string::npos) << got;
  EXPECT_LT(one, two);
  EXPECT_LT(two, three);
  EXPECT_EQ(count(got, "Connection: close"), 1u);  // only the last, and then the server closed
}

TEST(HttpServer, ABodyArrivingInPiecesIsGivenWhole) {
  testing::TestLoop t;
  Handler echo_body = [](const Request&, std::string_view body) {
    return Response{200, "text/plain", std::string(body)};
  };
  Served s(t.loop, {}, echo_body);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  auto send_in_pieces = [](EventLoop* loop, int fd) -> Coro<std::string> {
    for (std::string piece : {"POST / HTTP/1.1\r\nContent-", "Length: 11\r\n\r\nhello", " world"}) {
      Future<void> sending = loop->sock_sendall(fd, piece);
      co_await sending;
      co_await sleep(10ms);
    }
    ::shutdown(fd, SHUT_WR);
    co_return co_await read_to_end(loop, fd);
  };
  std::string got = t.loop.run_until_complete(create_task(t.loop, send_in_pieces, &t.loop, fd));
  EXPECT_NE(got.find("\r\n\r\nhello world"), std::string::npos) << got;
}

TEST(HttpServer, WhatItCannotTakeIsAnsweredAndClosed) {
  struct Case {
    std::string request;
    std::string status;
  };
  std::vector<Case> cases = {
      {"GET /\r\n\r\n", "400 Bad Request"},
      {"GET / HTTP/1.1\r\nBad Header\r\n\r\n", "400 Bad Request"},
      {"GET / HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n",
       "431 Request Header Fields Too Large"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "501 Not Implemented"},
      {"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", "413 Content Too Large"},
  };
  for (const Case& c : cases) {
    testing::TestLoop t;
    Served s(t.loop);
    Fd client;
    int fd =
        t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
    auto send_then_read = [](EventLoop* loop, int fd, std::string raw) -> Coro<std::string> {
      Future<void> sending = loop->sock_sendall(fd, raw);
      co_await sending;
      co_return co_await read_to_end(loop, fd);
    };
    std::string got =
        t.loop.run_until_complete(create_task(t.loop, send_then_read, &t.loop, fd, c.request));
    EXPECT_EQ(got.rfind("HTTP/1.1 " + c.status + "\r\n", 0), 0u) << got.substr(0, 80);
    EXPECT_NE(got.find("Connection: close\r\n"), std::string::npos);
  }
}

TEST(HttpServer, AClientThatSendsTooSlowlyIsClosedAtTheDeadline) {
  testing::TestLoop t;
  Limits limits;
  limits.request_timeout = 2s;
  Served s(t.loop, limits);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  auto slowloris = [](EventLoop* loop, int fd) -> Coro<std::string> {
    std::string head = "GET / HTTP/1.1\r";  // a byte every 100 ms, then nothing
    for (char c : head) {
      Future<void> sending = loop->sock_sendall(fd, std::string(1, c));
      co_await sending;
      co_await sleep(100ms);
    }
    co_return co_await read_to_end(loop, fd);
  };
  double start = t.now();
  std::string got = t.loop.run_until_complete(create_task(t.loop, slowloris, &t.loop, fd));
  EXPECT_EQ(got, "");                           // closed without an answer
  EXPECT_LE(t.now() - start, 2.0 + 0.5 + 0.1);  // the deadline, and at most one sweep period late
  EXPECT_GE(t.now() - start, 2.0);
  EXPECT_EQ(s.server.open_connections(), 0u);
}

TEST(HttpServer, AnIdleKeepAliveConnectionIsClosedAfterTheTimeout) {
  testing::TestLoop t;
  Limits limits;
  limits.request_timeout = 4s;
  Served s(t.loop, limits);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  t.loop.run_until_complete(
      create_task(t.loop, exchange(&t.loop, fd, "GET / HTTP/1.1\r\n\r\n", 1)));
  std::string rest = t.loop.run_until_complete(create_task(t.loop, read_to_end(&t.loop, fd)));
  EXPECT_EQ(rest, "");
  EXPECT_EQ(s.server.open_connections(), 0u);
}

TEST(HttpServer, AClientThatDoesNotReadStopsTheServerAtTheHighWaterMark) {
  testing::TestLoop t;
  Limits limits;
  limits.high_water = 64 * 1024;
  Handler big = [](const Request&, std::string_view) {
    return Response{200, "text/plain", std::string(32 * 1024, 'x')};
  };
  Served s(t.loop, limits, big);
  Fd client;
  int fd =
      t.loop.run_until_complete(create_task(t.loop, connect_to(&t.loop, &s.listener, &client)));
  // 2,000 pipelined requests (64 MB of answers), and the client never reads.
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "GET / HTTP/1.1\r\n\r\n";
  Future<void> sending = t.loop.sock_sendall(fd, many);
  for (int turn = 0; turn < 200; ++turn) t.turn();
  std::uint64_t served = s.server.requests_served();
  for (int turn = 0; turn < 200; ++turn) t.turn();
  EXPECT_EQ(s.server.requests_served(), served);  // stopped, not growing a buffer
  std::printf("answered before the server stopped: %llu of 2000\n",
              static_cast<unsigned long long>(served));
  // What it answered fits in the kernel's buffers and the writer's high-water mark.
  int sent_buffer = testing::send_buffer_size(fd);
  EXPECT_LT(served * 32 * 1024,
            static_cast<std::uint64_t>(8 * sent_buffer) + limits.high_water * 4);
  EXPECT_LT(served, 2000u);
  sending.cancel();
}

}  // namespace
}  // namespace looplab::http
