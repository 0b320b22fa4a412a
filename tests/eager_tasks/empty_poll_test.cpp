// The poll a turn skips (stage 07 on): a turn that must not wait, with no
// descriptor of the program's watched, does not call the selector, whose
// answer could only be "nothing ready". With one descriptor watched every
// turn polls, as asyncio's does, and a turn that may wait always asks. From
// stage 09 the loop's own self-pipe does not count while it can carry
// nothing new (tests/threadsafe/self_pipe_poll_test.cpp).
#include <gtest/gtest.h>

#include <chrono>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/counting_selector.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::CountedLoop;

TEST(EmptyPoll, ATurnThatMustNotWaitWithNothingWatchedDoesNotPoll) {
  CountedLoop t;
  int hops = 0;
  t.loop.call_soon([&] { ++hops; });
  t.busy_turns(10);
  EXPECT_EQ(hops, 1);
  EXPECT_EQ(t.polls, 0);
}

TEST(EmptyPoll, WithADescriptorWatchedEveryTurnPollsAsAsyncioDoes) {
  CountedLoop t;
  testing::SocketPair pair;
  t.loop.add_reader(pair.left(), [] {});  // never readable: nothing is sent
  t.busy_turns(10);
  EXPECT_EQ(t.polls, 10);
  t.loop.remove_reader(pair.left());
  t.busy_turns(10);
  EXPECT_EQ(t.polls, 10);  // nothing watched again: no more polls
}

TEST(EmptyPoll, AReaderWithDataWaitingIsReportedByABusyTurn) {
  CountedLoop t;
  testing::SocketPair pair;
  int reads = 0;
  t.loop.add_reader(pair.left(), [&] {
    ++reads;
    testing::SocketPair::receive(pair.left());
  });
  testing::SocketPair::send(pair.right(), "x");
  t.busy_turns(1);
  EXPECT_EQ(reads, 1);
  t.loop.remove_reader(pair.left());
}

TEST(EmptyPoll, ATurnThatMayWaitStillAsksTheSelector) {
  CountedLoop t;
  t.loop.call_later(1s, [&] { t.loop.stop(); });
  t.loop.run_forever();  // one turn: a wait of 1 s, which the virtual clock jumps
  EXPECT_EQ(t.polls, 1);
  EXPECT_EQ(t.loop.time().time_since_epoch(), Clock::duration(1s));
}

}  // namespace
}  // namespace looplab
