// The loop's own self-pipe and the poll a busy turn skips (stage 09 on): the
// pipe does not count as a watched descriptor while nothing new can have
// come through it. A signal handler makes every turn look again, until it is
// removed; a turn after another thread posted still polls, and empties the
// pipe (tests/eager_tasks/empty_poll_test.cpp has the rule itself).
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "looplab/event_loop.hpp"
#include "support/counting_selector.hpp"

namespace looplab {
namespace {

using testing::CountedLoop;
using testing::run_one_turn;

TEST(SelfPipePoll, ASignalHandlerMakesEveryTurnLookUntilItIsRemoved) {
  CountedLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] {});
  t.busy_turns(5);
  EXPECT_EQ(t.polls, 5);  // the self-pipe is where a delivered signal shows
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));
  t.busy_turns(5);
  EXPECT_EQ(t.polls, 5);
}

TEST(SelfPipePoll, ATurnAfterAnotherThreadPostedStillPolls) {
  CountedLoop t;
  int ran = 0;
  std::thread poster([&] { t.loop.call_soon_threadsafe([&ran] { ++ran; }); });
  poster.join();
  run_one_turn(t.loop);  // polls, empties the self-pipe, takes the post
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(t.polls, 1);
  t.busy_turns(3);
  EXPECT_EQ(t.polls, 1);
}

}  // namespace
}  // namespace looplab
