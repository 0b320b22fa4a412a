// loop.sock_connect and loop.sock_accept (asyncio-semantics.md 3.3), over
// TCP on 127.0.0.1.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "futures/support.hpp"
#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using testing::Fd;
using testing::is_non_blocking;
using testing::os_error_of;
using testing::run_one_turn;
using testing::TcpListener;

TEST(SockAcceptConnect, AcceptWaitsForAClientAndReturnsANonBlockingDescriptor) {
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  Future<int> accepted = loop.sock_accept(listener.fd.get());
  EXPECT_FALSE(accepted.done());
  EXPECT_EQ(testing::watched(loop), 1u);
  run_one_turn(loop);
  EXPECT_FALSE(accepted.done());

  Fd client = testing::tcp_socket();
  Future<> connected = loop.sock_connect(client.get(), listener.addr(), sizeof listener.address);
  Fd server(loop.run_until_complete(accepted));
  loop.run_until_complete(connected);
  ASSERT_GE(server.get(), 0);
  EXPECT_TRUE(is_non_blocking(server.get()));
  EXPECT_EQ(testing::watched(loop), 0u);

  // The two ends talk through the other socket operations.
  loop.run_until_complete(loop.sock_sendall(client.get(), "over tcp"));
  std::string got;
  while (got.size() < 8) got += loop.run_until_complete(loop.sock_recv(server.get(), 100));
  EXPECT_EQ(got, "over tcp");
}

TEST(SockAcceptConnect, AcceptOfAClientAlreadyWaitingIsDoneAtOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  Fd client = testing::tcp_socket();
  loop.run_until_complete(
      loop.sock_connect(client.get(), listener.addr(), sizeof listener.address));
  Future<int> accepted = loop.sock_accept(listener.fd.get());
  ASSERT_TRUE(accepted.done());
  Fd server(accepted.result());
  EXPECT_TRUE(is_non_blocking(server.get()));
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(SockAcceptConnect, ConnectingToAClosedPortIsConnectionRefused) {
  VirtualClock clock;
  EventLoop loop(clock);
  sockaddr_in nobody = testing::closed_port();
  Fd client = testing::tcp_socket();
  Future<> connected =
      loop.sock_connect(client.get(), reinterpret_cast<const sockaddr*>(&nobody), sizeof nobody);
  EXPECT_THROW(loop.run_until_complete(connected), OSError);
  EXPECT_EQ(os_error_of(connected), ECONNREFUSED);
  EXPECT_EQ(testing::watched(loop), 0u);  // no writer left behind
}

TEST(SockAcceptConnect, ABadAddressFailsAtOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  Fd client = testing::tcp_socket();
  sockaddr_in address = testing::loopback(1);
  Future<> connected =
      loop.sock_connect(client.get(), reinterpret_cast<const sockaddr*>(&address), 3);
  ASSERT_TRUE(connected.done());
  EXPECT_EQ(os_error_of(connected), EINVAL);
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(SockAcceptConnect, AcceptOnASocketThatDoesNotListenIsAnOSError) {
  VirtualClock clock;
  EventLoop loop(clock);
  Fd not_listening = testing::tcp_socket();
  Future<int> accepted = loop.sock_accept(not_listening.get());
  ASSERT_TRUE(accepted.done());
  EXPECT_EQ(os_error_of(accepted), EINVAL);
}

TEST(SockAcceptConnect, CancellingAWaitingAcceptRemovesItsReaderAndAcceptsNothing) {
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  Future<int> accepted = loop.sock_accept(listener.fd.get());
  ASSERT_EQ(testing::watched(loop), 1u);
  EXPECT_TRUE(accepted.cancel());
  Fd client = testing::tcp_socket();
  loop.run_until_complete(
      loop.sock_connect(client.get(), listener.addr(), sizeof listener.address));
  EXPECT_EQ(testing::watched(loop), 0u);
  // The connection is still in the backlog: the cancelled accept took nothing.
  Future<int> again = loop.sock_accept(listener.fd.get());
  ASSERT_TRUE(again.done());
  Fd server(again.result());
  EXPECT_GE(server.get(), 0);
}

}  // namespace
}  // namespace looplab
