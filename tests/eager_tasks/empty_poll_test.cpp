// The poll a turn skips (stage 07 on): a turn that must not wait, with no
// descriptor of the program's watched, does not call the selector, whose
// answer could only be "nothing ready". With one descriptor watched every
// turn polls, as asyncio's does, and a turn that may wait always asks. From
// stage 09 the loop's own self-pipe does not count while it can carry
// nothing new: no signal handler is set, and no other thread has posted.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <span>
#include <thread>
#include <utility>

#include "io/socket_pair.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::run_one_turn;

// The loop's default selector, counting the waits the loop asks of it.
class CountingSelector final : public Selector {
 public:
  CountingSelector(std::unique_ptr<Selector> inner, int* polls)
      : inner_(std::move(inner)), polls_(polls) {}

  std::span<const SelectorEvent> select(Timeout timeout) override {
    ++*polls_;
    return inner_->select(timeout);
  }
  void register_fd(int fd, unsigned events) override { inner_->register_fd(fd, events); }
  void modify(int fd, unsigned events) override { inner_->modify(fd, events); }
  void unregister(int fd) override { inner_->unregister(fd); }
  void renew(int fd) override { inner_->renew(fd); }
  std::size_t size() const noexcept override { return inner_->size(); }
  const char* name() const noexcept override { return inner_->name(); }

 private:
  std::unique_ptr<Selector> inner_;
  int* polls_;
};

struct CountedLoop {
  int polls = 0;
  VirtualClock clock;
  EventLoop loop{clock, std::make_unique<CountingSelector>(make_default_selector(), &polls)};

  // `count` turns with a callback ready in each: none of them may wait.
  void busy_turns(int count) {
    for (int i = 0; i < count; ++i) {
      loop.call_soon([] {});
      run_one_turn(loop);
    }
  }
};

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

#if LOOPLAB_STAGE >= 9
TEST(EmptyPoll, ASignalHandlerMakesEveryTurnLookUntilItIsRemoved) {
  CountedLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] {});
  t.busy_turns(5);
  EXPECT_EQ(t.polls, 5);  // the self-pipe is where a delivered signal shows
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));
  t.busy_turns(5);
  EXPECT_EQ(t.polls, 5);
}

TEST(EmptyPoll, ATurnAfterAnotherThreadPostedStillPolls) {
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
#endif

}  // namespace
}  // namespace looplab
