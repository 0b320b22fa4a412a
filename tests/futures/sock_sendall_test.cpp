// loop.sock_sendall (asyncio-semantics.md 3.3): send what the kernel takes
// at once; wait with a writer for room for the rest, as often as needed.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cerrno>
#include <string>

#include "futures/support.hpp"
#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using testing::os_error_of;
using testing::run_one_turn;
using testing::SocketPair;

/// Reads everything that is there now.
std::string drain(int fd) {
  std::string all;
  for (std::string piece; !(piece = SocketPair::receive(fd)).empty();) all += piece;
  return all;
}

/// Bytes 0..255 repeated: a reordering or a lost chunk shows up in a compare.
std::string pattern(std::size_t size) {
  std::string data(size, '\0');
  for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<char>(i * 7 % 251);
  return data;
}

TEST(SockSendall, WhatFitsIsSentAtOnceAndTheFutureIsDoneOnReturn) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<> sent = loop.sock_sendall(pair.left(), "hello");
  EXPECT_TRUE(sent.done());
  EXPECT_NO_THROW(sent.result());
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_EQ(SocketPair::receive(pair.right()), "hello");
}

TEST(SockSendall, EmptyDataIsDoneAtOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<> sent = loop.sock_sendall(pair.left(), "");
  EXPECT_TRUE(sent.done());
  EXPECT_EQ(drain(pair.right()), "");
}

TEST(SockSendall, MoreThanTheSocketBuffersHoldCompletesOnceThePeerDrainsIt) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  const std::string data = pattern(8u << 20);  // far beyond SO_SNDBUF + SO_RCVBUF
  ASSERT_GT(data.size(), 4u * static_cast<std::size_t>(testing::send_buffer_size(pair.left())));
  Future<> sent = loop.sock_sendall(pair.left(), data);
  EXPECT_FALSE(sent.done());
  EXPECT_EQ(testing::watched(loop), 1u);  // a writer
  run_one_turn(loop);
  EXPECT_FALSE(sent.done());  // nobody reads: still no room

  std::string received;
  loop.add_reader(pair.right(), [&] { received += drain(pair.right()); });
  loop.run_until_complete(sent);
  // What is still in flight (bounded: a lost chunk must fail, not hang).
  for (int turn = 0; turn < 100'000 && received.size() < data.size(); ++turn) run_one_turn(loop);
  loop.remove_reader(pair.right());
  EXPECT_EQ(received.size(), data.size());
  EXPECT_TRUE(received == data);
  EXPECT_EQ(testing::watched(loop), 0u);  // the writer went with its done callback
}

TEST(SockSendall, ThePeerClosingWhileWeWaitFinishesTheFutureWithEpipe) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<> sent = loop.sock_sendall(pair.left(), pattern(4u << 20));
  ASSERT_FALSE(sent.done());
  loop.call_soon([&] { pair.close_right(); });
  EXPECT_THROW(loop.run_until_complete(sent), OSError);
  EXPECT_EQ(os_error_of(sent), EPIPE);
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(SockSendall, SendingToAClosedPeerFinishesTheFutureAtOnceWithoutSigpipe) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  pair.close_right();
  Future<> sent = loop.sock_sendall(pair.left(), "nobody listens");
  ASSERT_TRUE(sent.done());  // and the process is still alive: MSG_NOSIGNAL
  EXPECT_EQ(os_error_of(sent), EPIPE);
}

// asyncio calls send() once even for no data, so a broken connection fails
// an empty sendall too.
TEST(SockSendall, EvenEmptyDataToAClosedPeerFailsWithEpipe) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  pair.close_right();
  Future<> sent = loop.sock_sendall(pair.left(), "");
  ASSERT_TRUE(sent.done());
  EXPECT_EQ(os_error_of(sent), EPIPE);
}

TEST(SockSendall, CancellingAWaitingSendallRemovesItsWriterInTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<> sent = loop.sock_sendall(pair.left(), pattern(4u << 20));
  ASSERT_EQ(testing::watched(loop), 1u);
  EXPECT_TRUE(sent.cancel());
  run_one_turn(loop);
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_writer(pair.left()));
  // What was sent before the cancellation stays sent; nothing more follows.
  std::size_t before = drain(pair.right()).size();
  EXPECT_GT(before, 0u);
  run_one_turn(loop);
  EXPECT_EQ(drain(pair.right()), "");
}

TEST(SockSendall, AWaitingSendallAndAWaitingRecvShareTheDescriptor) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  Future<> sent = loop.sock_sendall(pair.left(), pattern(4u << 20));
  ASSERT_FALSE(sent.done());
  EXPECT_EQ(testing::watched(loop), 1u);  // one descriptor, reader and writer
  SocketPair::send(pair.right(), "reply");
  EXPECT_EQ(loop.run_until_complete(received), "reply");
  EXPECT_FALSE(sent.done());
  EXPECT_EQ(testing::watched(loop), 1u);  // the writer is still there
  EXPECT_TRUE(sent.cancel());
  run_one_turn(loop);
  EXPECT_EQ(testing::watched(loop), 0u);
}

}  // namespace
}  // namespace looplab
