// Extension lab 04: the edge-triggered selector's contract, rules 1 to 8 of
// edge_epoll_selector.hpp, one rule per test. Socket pairs, pipes and zero
// timeouts only: every test sees the same reports on any machine.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "edge_helpers.hpp"
#include "io/socket_pair.hpp"
#include "looplab/lab/edge_epoll_selector.hpp"
#include "looplab/select_selector.hpp"

namespace looplab::lab {
namespace {

using edge_testing::events_for;
using edge_testing::read_until_eagain;
using edge_testing::write_until_eagain;
using testing::SocketPair;

// Rule 1.
TEST(EdgeEpoll, RegisteringADescriptorThatIsReadyReportsItOnce) {
  SocketPair pair;
  SocketPair::send(pair.right(), "x");
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
}

// Rule 2, beside the level-triggered contract of every backend of the stage
// (SelectorTest.IsLevelTriggeredAnUndrainedDescriptorIsReportedAgain).
TEST(EdgeEpoll, UnreadDataIsReportedOnceWhereLevelTriggeringRepeatsIt) {
  SocketPair pair;
  SelectSelector level;
  EdgeEpollSelector edge;
  level.register_fd(pair.left(), kEventRead);
  edge.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "xy");
  int level_reports = 0;
  int edge_reports = 0;
  for (int i = 0; i < 3; ++i) {
    level_reports += events_for(level, pair.left()) == kEventRead ? 1 : 0;
    edge_reports += events_for(edge, pair.left()) == kEventRead ? 1 : 0;
  }
  EXPECT_EQ(level_reports, 3) << "a state, reported by every select()";
  EXPECT_EQ(edge_reports, 1) << "a change, reported once";
}

// Rule 3.
TEST(EdgeEpoll, NewDataIsANewEdgeWhetherTheOldWasReadOrNot) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  SocketPair::send(pair.right(), "a");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u) << "nothing new";
  SocketPair::send(pair.right(), "b");  // "a" still unread
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  EXPECT_EQ(SocketPair::receive(pair.left()), "ab");
}

// Rule 4, the consumer's side: drained to EAGAIN, the next arrival is news.
TEST(EdgeEpoll, AfterReadingUntilEagainTheNextArrivalIsReported) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), std::string(10'000, 'x'));
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(read_until_eagain(pair.left()), 10'000u);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  SocketPair::send(pair.right(), "y");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(read_until_eagain(pair.left()), 1u);
}

// Rules 2 and 4 for a writer: writable is reported once, and again only
// once the buffer it filled to EAGAIN has room.
TEST(EdgeEpoll, WritableIsReportedOnceAndAgainWhenAFullBufferFreesUp) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), 0u) << "still writable, but that is not news";
  EXPECT_GT(write_until_eagain(pair.left()), 0u);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  read_until_eagain(pair.right());  // the peer makes room
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
}

// Rule 3 for the end of file: the peer's close is an edge of its own, also
// for a reader that left data behind.
TEST(EdgeEpoll, APeerClosingIsReportedOnceEvenToAReaderThatLeftData) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  pair.close_right();
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  EXPECT_EQ(SocketPair::receive(pair.left()), "x");
  EXPECT_EQ(SocketPair::receive(pair.left()), "") << "then the end of file";
}

// Rule 8: the peer's shutdown(SHUT_WR) is EPOLLIN|EPOLLRDHUP without
// EPOLLOUT when our buffer toward it is full. The reader is woken, and the
// writer, which could not write a byte, is not.
TEST(EdgeEpoll, AHalfCloseWakesTheReaderNotTheWriter) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead | kEventWrite | kEventPeerClosed);
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  write_until_eagain(pair.left());
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  ASSERT_EQ(::shutdown(pair.right(), SHUT_WR), 0);
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead | kEventPeerClosed);
  EXPECT_EQ(SocketPair::receive(pair.left()), "") << "the end of file";
}

// Rule 8: the end of file in the report, for a consumer that asks for it; a
// plain reader is woken too, but learns it only from read().
TEST(EdgeEpoll, APeerThatStopsSendingIsReportedToWhoAskedForIt) {
  SocketPair pair;
  EdgeEpollSelector asked;
  EdgeEpollSelector plain;
  asked.register_fd(pair.left(), kEventRead | kEventPeerClosed);
  plain.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(asked, pair.left()), kEventRead) << "data, and the peer still there";
  EXPECT_EQ(events_for(plain, pair.left()), kEventRead);
  ASSERT_EQ(::shutdown(pair.right(), SHUT_WR), 0);
  EXPECT_EQ(events_for(asked, pair.left()), kEventRead | kEventPeerClosed);
  EXPECT_EQ(events_for(plain, pair.left()), kEventRead);
  EXPECT_EQ(events_for(asked, pair.left()), 0u) << "once";
}

// Rule 8: a hang-up wakes everyone who is registered.
TEST(EdgeEpoll, AFullCloseWakesTheReaderAndTheWriter) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead | kEventWrite | kEventPeerClosed);
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  write_until_eagain(pair.left());
  pair.close_right();
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead | kEventWrite | kEventPeerClosed);
}

// Rule 8 on a pipe, whose reading end reports EPOLLHUP alone when the
// writer is gone and nothing is left: no EPOLLIN, no EPOLLRDHUP, and still
// the reader must be woken, and told.
TEST(EdgeEpoll, AHangUpAloneWakesTheReaderAndSaysThePeerClosed) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK | O_CLOEXEC), 0);
  EdgeEpollSelector selector;
  selector.register_fd(fds[0], kEventRead | kEventPeerClosed);
  EXPECT_EQ(events_for(selector, fds[0]), 0u);
  ::close(fds[1]);
  EXPECT_EQ(events_for(selector, fds[0]), kEventRead | kEventPeerClosed);
  EXPECT_EQ(events_for(selector, fds[0]), 0u) << "once";
  ::close(fds[0]);
}

// Rule 5: a wake-up for one event re-reads the whole mask, so the writer of
// a socket that was writable all along is told again when data arrives.
TEST(EdgeEpoll, AnArrivalReportsTheWriterAgainWhichWasNotNews) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead | kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead | kEventWrite);
}

// Rule 8: only what is registered. Data for a writer-only descriptor is no
// edge for it at all; a hang-up is, for the writer only.
TEST(EdgeEpoll, ReportsOnlyTheRegisteredEvents) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventWrite);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  SocketPair::send(pair.right(), "y");
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  pair.close_right();
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
}

}  // namespace
}  // namespace looplab::lab
