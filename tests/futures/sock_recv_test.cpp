// loop.sock_recv (asyncio-semantics.md 3.3): try recv() at once; on EAGAIN
// wait with a reader, removed by a done callback one turn after the future
// completes; one waiter per descriptor.
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

using namespace std::chrono_literals;
using testing::os_error_of;
using testing::run_one_turn;
using testing::seconds;
using testing::SocketPair;

TEST(SockRecv, DataAlreadyWaitingCompletesTheFutureBeforeItIsReturned) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  SocketPair::send(pair.right(), "ping");
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  EXPECT_TRUE(received.done());
  EXPECT_EQ(received.result(), "ping");
  EXPECT_EQ(testing::watched(loop), 0u);  // no reader was needed
  EXPECT_FALSE(loop.remove_reader(pair.left()));
}

TEST(SockRecv, ReceivesAtMostMaxBytes) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  SocketPair::send(pair.right(), "abcdef");
  EXPECT_EQ(loop.sock_recv(pair.left(), 4).result(), "abcd");
  EXPECT_EQ(loop.sock_recv(pair.left(), 4).result(), "ef");
}

// Python's sock.recv(0) returns b'' without a system call; recv(fd, 0)
// would say EAGAIN on an idle socket, and the future would wait forever.
TEST(SockRecv, ZeroBytesIsAnEmptyResultAtOnceEvenWithNothingToRead) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> nothing = loop.sock_recv(pair.left(), 0);
  EXPECT_TRUE(nothing.done());
  EXPECT_EQ(nothing.result(), "");
  EXPECT_EQ(testing::watched(loop), 0u);
  SocketPair::send(pair.right(), "kept");
  EXPECT_EQ(loop.sock_recv(pair.left(), 0).result(), "");
  EXPECT_EQ(loop.sock_recv(pair.left(), 100).result(), "kept");  // nothing was consumed
}

TEST(SockRecv, OnEagainItWaitsWithAReaderUntilDataArrives) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  EXPECT_FALSE(received.done());
  EXPECT_EQ(testing::watched(loop), 1u);
  run_one_turn(loop);
  EXPECT_FALSE(received.done());  // nothing to read yet
  loop.call_later(100ms, [&] { SocketPair::send(pair.right(), "pong"); });
  EXPECT_EQ(loop.run_until_complete(received), "pong");
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 0.1);
  // The done callback that removes the reader ran before the one that stopped the loop.
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_reader(pair.left()));
}

TEST(SockRecv, TheReaderIsRemovedOneTurnAfterCompletionAndLeavesLaterDataAlone) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  SocketPair::send(pair.right(), "a");
  run_one_turn(loop);  // the reader runs and completes the future
  ASSERT_TRUE(received.done());
  EXPECT_EQ(received.result(), "a");
  EXPECT_EQ(testing::watched(loop), 1u);  // still registered: its removal is a done callback
  SocketPair::send(pair.right(), "b");
  run_one_turn(loop);  // the removal runs before the (now cancelled) reader
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_EQ(SocketPair::receive(pair.left()), "b");  // not swallowed by the finished operation
}

TEST(SockRecv, EndOfFileGivesAnEmptyString) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  pair.close_right();
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  ASSERT_TRUE(received.done());
  EXPECT_EQ(received.result(), "");
}

TEST(SockRecv, EndOfFileWhileWaitingGivesAnEmptyString) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  ASSERT_FALSE(received.done());
  loop.call_later(1s, [&] { pair.close_right(); });
  EXPECT_EQ(loop.run_until_complete(received), "");
  EXPECT_DOUBLE_EQ(seconds(loop.time()), 1.0);
}

TEST(SockRecv, AFailingRecvFinishesTheFutureWithAnOSError) {
  VirtualClock clock;
  EventLoop loop(clock);
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  Future<std::string> received = loop.sock_recv(pipe_ends[0], 10);  // not a socket
  ASSERT_TRUE(received.done());
  EXPECT_EQ(os_error_of(received), ENOTSOCK);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
}

TEST(SockRecv, CancellingAWaitingRecvRemovesItsReaderInTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  ASSERT_EQ(testing::watched(loop), 1u);
  EXPECT_TRUE(received.cancel());
  EXPECT_EQ(testing::watched(loop), 1u);  // the removal is a done callback
  SocketPair::send(pair.right(), "kept");
  run_one_turn(loop);
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_reader(pair.left()));
  EXPECT_EQ(SocketPair::receive(pair.left()), "kept");  // the cancelled recv read nothing
  EXPECT_THROW(received.result(), CancelledError);
}

TEST(SockRecv, ARecvCancelledEarlierInTheTurnOfItsReadinessReadsNothing) {
  // The reader is queued when the turn starts (descriptor readable); a
  // callback queued before it cancels the future: the reader must not read.
  testing::TestLoop r;
  SocketPair pair;
  Future<std::string> received = r.loop.sock_recv(pair.left(), 100);
  r.loop.call_soon([&] { received.cancel(); });
  SocketPair::send(pair.right(), "not for a cancelled recv");
  run_one_turn(r.loop);
  EXPECT_TRUE(received.cancelled());
  EXPECT_TRUE(r.reports.empty());  // no InvalidStateError from a late set_result
  EXPECT_EQ(SocketPair::receive(pair.left()), "not for a cancelled recv");
}

TEST(SockRecv, ASecondRecvOnTheSameDescriptorReplacesTheFirstsReader) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> first = loop.sock_recv(pair.left(), 100);
  Future<std::string> second = loop.sock_recv(pair.left(), 100);
  EXPECT_EQ(testing::watched(loop), 1u);
  SocketPair::send(pair.right(), "x");
  run_one_turn(loop);
  ASSERT_TRUE(second.done());
  EXPECT_EQ(second.result(), "x");
  EXPECT_FALSE(first.done());  // orphaned, as in asyncio
  run_one_turn(loop);
  EXPECT_EQ(testing::watched(loop), 0u);  // the second's done callback removed the reader
  SocketPair::send(pair.right(), "y");
  run_one_turn(loop);
  EXPECT_FALSE(first.done());  // nobody reads for it any more
  EXPECT_TRUE(first.cancel());
  run_one_turn(loop);
  EXPECT_EQ(SocketPair::receive(pair.left()), "y");
}

TEST(SockRecv, CancellingTheReplacedFirstRecvDoesNotRemoveTheSecondsReader) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> first = loop.sock_recv(pair.left(), 100);
  Future<std::string> second = loop.sock_recv(pair.left(), 100);
  EXPECT_TRUE(first.cancel());
  run_one_turn(loop);  // first's done callback: its reader was replaced, so it leaves the fd alone
  EXPECT_EQ(testing::watched(loop), 1u);
  EXPECT_FALSE(second.done());
  SocketPair::send(pair.right(), "for the second");
  EXPECT_EQ(loop.run_until_complete(second), "for the second");
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(SockRecv, ARecvWaitingWhenTheLoopClosesIsLeftPendingAndFreed) {
  // Closing drops the reader; the future (held only by it and by us) stays pending.
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  loop.close();
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(received.done());
  // The last reference goes here; LeakSanitizer checks that nothing (reader,
  // future, done callback) keeps the others alive in a cycle.
  received = loop.create_future<std::string>();
}

TEST(SockRecv, OnAClosedLoopDataWaitingIsStillReceivedButWaitingIsARuntimeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  loop.close();
  SocketPair::send(pair.right(), "z");
  EXPECT_EQ(loop.sock_recv(pair.left(), 10).result(), "z");  // asyncio tries recv() first too
  EXPECT_EQ(testing::thrown_by([&] { loop.sock_recv(pair.left(), 10); }),
            "RuntimeError: Event loop is closed");
}

}  // namespace
}  // namespace looplab
