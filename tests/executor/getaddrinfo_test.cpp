// loop.getaddrinfo(): ::getaddrinfo() on the default executor, a numeric
// host answered at once without a thread (asyncio's _ipaddr_info), errors
// as GaiError (socket.gaierror), and sock_connect() to a host by name.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/addr_info.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/task.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using concurrent::ThreadPoolExecutor;
using GetaddrinfoTest = testing::Watched;

std::string ipv4_of(const AddrInfo& info) {
  const auto* address = reinterpret_cast<const sockaddr_in*>(&info.address);
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &address->sin_addr, text, sizeof text);
  return std::string(text) + ":" + std::to_string(ntohs(address->sin_port));
}

std::string ipv6_of(const AddrInfo& info) {
  const auto* address = reinterpret_cast<const sockaddr_in6*>(&info.address);
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, &address->sin6_addr, text, sizeof text);
  return "[" + std::string(text) + "]:" + std::to_string(ntohs(address->sin6_port));
}

TEST_F(GetaddrinfoTest, ANumericHostNeedsNoLookupButGetaddrinfoStillUsesTheExecutor) {
  // asyncio's _ipaddr_info(): the answer, made on the spot.
  std::optional<AddrInfo> v4 = ipaddr_info("127.0.0.1", "8080", AF_INET, SOCK_STREAM, 0);
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->family, AF_INET);
  EXPECT_EQ(v4->type, SOCK_STREAM);
  EXPECT_EQ(v4->protocol, IPPROTO_TCP);
  EXPECT_EQ(v4->canonname, "");
  EXPECT_EQ(v4->address_length, sizeof(sockaddr_in));
  EXPECT_EQ(ipv4_of(*v4), "127.0.0.1:8080");
  // AF_UNSPEC: the family is the one inet_pton accepts.
  std::optional<AddrInfo> v6 = ipaddr_info("::1", "443", AF_UNSPEC, SOCK_DGRAM, 0);
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->family, AF_INET6);
  EXPECT_EQ(v6->protocol, IPPROTO_UDP);
  EXPECT_EQ(v6->address_length, sizeof(sockaddr_in6));
  EXPECT_EQ(ipv6_of(*v6), "[::1]:443");
  EXPECT_FALSE(ipaddr_info("localhost", "80", AF_INET, SOCK_STREAM, 0).has_value());

  // loop.getaddrinfo() takes no shortcut (asyncio takes it only in
  // _ensure_resolved(), for sock_connect() and its like): a thread answers.
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(1);
  loop.set_default_executor(pool);
  std::vector<AddrInfo> infos =
      loop.run_until_complete(loop.getaddrinfo("127.0.0.1", "8080", AF_INET, SOCK_STREAM));
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(ipv4_of(infos[0]), "127.0.0.1:8080");
  EXPECT_EQ(pool->thread_count(), 1U);
}

TEST_F(GetaddrinfoTest, ANameIsResolvedOnTheDefaultExecutor) {
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(1);
  loop.set_default_executor(pool);
  Future<std::vector<AddrInfo>> resolved =
      loop.getaddrinfo("localhost", "80", AF_INET, SOCK_STREAM);
  std::vector<AddrInfo> infos = loop.run_until_complete(resolved);
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(infos[0].family, AF_INET);
  EXPECT_EQ(infos[0].type, SOCK_STREAM);
  EXPECT_EQ(ipv4_of(infos[0]), "127.0.0.1:80");
  EXPECT_EQ(pool->thread_count(), 1U);
}

TEST_F(GetaddrinfoTest, ANumericHostWithoutASocketTypeIsNotTheFastPath) {
  // _ipaddr_info answers for SOCK_STREAM and SOCK_DGRAM only: with type 0
  // the system's getaddrinfo() gives one entry per socket type, on a thread.
  EventLoop loop;
  auto pool = std::make_shared<ThreadPoolExecutor>(1);
  loop.set_default_executor(pool);
  Future<std::vector<AddrInfo>> resolved = loop.getaddrinfo("127.0.0.1", "80", AF_INET);
  std::vector<AddrInfo> infos = loop.run_until_complete(resolved);
  EXPECT_GE(infos.size(), 2U);
  for (const AddrInfo& info : infos) EXPECT_EQ(ipv4_of(info), "127.0.0.1:80");
  EXPECT_EQ(pool->thread_count(), 1U);
}

TEST_F(GetaddrinfoTest, AnEmptyHostOrPortIsPythonsNone) {
  EventLoop loop;
  // No host, AI_PASSIVE: the address to bind to, any interface.
  Future<std::vector<AddrInfo>> passive =
      loop.getaddrinfo("", "80", AF_INET, SOCK_STREAM, 0, AI_PASSIVE);
  std::vector<AddrInfo> infos = loop.run_until_complete(passive);
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(ipv4_of(infos[0]), "0.0.0.0:80");
  // No port: port 0 (the fast path too).
  Future<std::vector<AddrInfo>> portless = loop.getaddrinfo("127.0.0.1", "", AF_INET, SOCK_STREAM);
  infos = loop.run_until_complete(portless);
  ASSERT_EQ(infos.size(), 1U);
  EXPECT_EQ(ipv4_of(infos[0]), "127.0.0.1:0");
}

TEST_F(GetaddrinfoTest, AClosedLoopRefuses) {
  EventLoop loop;
  loop.close();
  EXPECT_EQ(
      testing::thrown_by([&] { (void)loop.getaddrinfo("127.0.0.1", "80", AF_INET, SOCK_STREAM); }),
      "RuntimeError: Event loop is closed");
}

/// The GaiError a resolution ends with, as "code | what" ("" if it succeeds).
std::string gai_error_of(EventLoop& loop, const Future<std::vector<AddrInfo>>& resolution) {
  try {
    loop.run_until_complete(resolution);
  } catch (const GaiError& error) {
    return std::to_string(error.code().value()) + " | " + error.what();
  }
  return "";
}

TEST_F(GetaddrinfoTest, AFailureIsAGaiErrorWithTheEaiCodeAndItsText) {
  static_assert(std::is_base_of_v<OSError, GaiError>, "socket.gaierror is an OSError");
  EventLoop loop;
  // AI_NUMERICHOST: a name that is no address fails without asking DNS.
  std::string error = gai_error_of(
      loop, loop.getaddrinfo("not an address", "80", AF_INET, SOCK_STREAM, 0, AI_NUMERICHOST));
  EXPECT_EQ(error.rfind(std::to_string(EAI_NONAME) + " | ", 0), 0U) << error;
  EXPECT_NE(error.find(gai_strerror(EAI_NONAME)), std::string::npos) << error;

  error = gai_error_of(loop, loop.getaddrinfo("localhost", "80", 12345, SOCK_STREAM));
  EXPECT_EQ(error.rfind(std::to_string(EAI_FAMILY) + " | ", 0), 0U) << error;
}

TEST_F(GetaddrinfoTest, ItReadsAsPythonsStrAndStrerror) {
  GaiError error(EAI_NONAME);
  EXPECT_EQ(std::string(error.what()),
            "[Errno " + std::to_string(EAI_NONAME) + "] " + gai_strerror(EAI_NONAME));
  EXPECT_EQ(error.strerror(), gai_strerror(EAI_NONAME));
}

TEST_F(GetaddrinfoTest, ItsReprShowsTheEaiCodesTextNotAnErrnos) {
  // repr(socket.gaierror(-2, ...)) is "gaierror(-2, 'Name or service not
  // known')": the code is getaddrinfo()'s, and so is the text.
  std::exception_ptr error = std::make_exception_ptr(GaiError(EAI_NONAME));
  EXPECT_EQ(exception_repr(error),
            "gaierror(" + std::to_string(EAI_NONAME) + ", '" + gai_strerror(EAI_NONAME) + "')");
  // A traceback's last line names it with its module.
  EXPECT_EQ(traceback_last_line(error), "socket.gaierror: [Errno " + std::to_string(EAI_NONAME) +
                                            "] " + gai_strerror(EAI_NONAME));
}

struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

Coro<int> connect_by_name(EventLoop* loop, int client, int listener, std::string host,
                          std::uint16_t port) {
  Coro<void> connecting = loop->sock_connect(client, std::move(host), port);
  co_await std::move(connecting);
  Future<int> accepted = loop->sock_accept(listener);
  co_return co_await accepted;
}

std::uint16_t port_of(int fd, bool peer) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  int rc = peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length)
                : getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return rc == 0 ? ntohs(address.sin_port) : 0;
}

TEST_F(GetaddrinfoTest, SockConnectResolvesTheHostThenConnects) {
  Descriptor listener{::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)};
  ASSERT_GE(listener.fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener.fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener.fd, 4), 0);
  const std::uint16_t port = port_of(listener.fd, false);
  // "localhost" goes through the executor; a numeric host needs no lookup
  // (asyncio's _ensure_resolved()).
  for (auto [host, threads] : {std::pair{"localhost", 1U}, std::pair{"127.0.0.1", 0U}}) {
    Descriptor client{::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)};
    ASSERT_GE(client.fd, 0);
    EventLoop loop;
    auto pool = std::make_shared<ThreadPoolExecutor>(1);
    loop.set_default_executor(pool);
    Descriptor server{
        loop.run_until_complete(connect_by_name(&loop, client.fd, listener.fd, host, port))};
    ASSERT_GE(server.fd, 0);
    EXPECT_EQ(port_of(server.fd, true), port_of(client.fd, false));  // one connection's two ends
    EXPECT_EQ(port_of(client.fd, true), port);
    EXPECT_EQ(pool->thread_count(), threads) << host;
  }
}

Coro<std::string> connect_refused(EventLoop* loop, int client, std::uint16_t port) {
  Coro<void> connecting = loop->sock_connect(client, "localhost", port);
  try {
    co_await std::move(connecting);
  } catch (const OSError& error) {
    co_return std::to_string(error.code().value());
  }
  co_return "connected";
}

TEST_F(GetaddrinfoTest, SockConnectByNameToAPortNobodyListensOnIsAnOSError) {
  // Bound but not listening: a connection to it is refused, every time.
  Descriptor bound{::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)};
  ASSERT_GE(bound.fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(bound.fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  Descriptor client{::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)};
  ASSERT_GE(client.fd, 0);
  EventLoop loop;
  EXPECT_EQ(loop.run_until_complete(connect_refused(&loop, client.fd, port_of(bound.fd, false))),
            std::to_string(ECONNREFUSED));
}

}  // namespace
}  // namespace looplab
