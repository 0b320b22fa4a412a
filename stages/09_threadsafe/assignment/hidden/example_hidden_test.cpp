// An example of an instructor's hidden tests for assignment 09 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// What the public tests leave out: a post made from another thread while a
// callback runs, against call_soon() made after it; a post with a Context of
// its own; the wake-up rule after the loop has drained its pipe, not only
// before the first drain; a signal that interrupts another thread than the
// loop's, which only the self-pipe can tell the sleeping loop about; and the
// C handler's errno when its write fails on a full pipe.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "looplab/context.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

TEST(HiddenExample, APostFromAThreadWhileACallbackRunsComesBeforeTheCallSoonsAfterIt) {
  // asyncio appends the post to the ready queue the moment it is made, so B,
  // scheduled by A once the thread has posted X, runs after X.
  testing::TestLoop t;
  std::string ran;
  t.loop.call_soon([&] {
    ran += 'A';
    std::thread([&] { t.loop.call_soon_threadsafe([&] { ran += 'X'; }); }).join();
    t.loop.call_soon([&] { ran += 'B'; });
  });
  t.turn();
  EXPECT_EQ(ran, "A");
  t.turn();
  EXPECT_EQ(ran, "AXB");
}

TEST(HiddenExample, APostWithAContextRunsInThatContextNotInThePostingThreads) {
  static ContextVar<std::string> request_id("hidden_request_id", "none");
  testing::TestLoop t;
  Context chosen = Context::copy_current();
  chosen.run([] { request_id.set("chosen"); });
  std::string seen;
  std::thread([&] {
    request_id.set("the thread's own");
    t.loop.call_soon_threadsafe([&] { seen = request_id.get(); }, chosen);
  }).join();
  t.turn();
  EXPECT_EQ(seen, "chosen");
}

class OncePerDrain : public ::testing::TestWithParam<SelfPipe::Kind> {};

TEST_P(OncePerDrain, AfterTheLoopHasDrainedItsPipeTheNextPostWritesAgain) {
  VirtualClock clock;
  EventLoop loop(clock, make_default_selector(), GetParam(),
                 ThreadsafeQueue::WakeRule::kOncePerDrain);
  auto writes = [&] { return loop.threadsafe_queue().self_pipe().writes(); };
  int ran = 0;
  loop.call_soon_threadsafe([&] { ++ran; });  // the loop is not running: posted
  loop.call_soon_threadsafe([&] { ++ran; });
  EXPECT_EQ(writes(), 1U);
  testing::run_one_turn(loop);  // runs both, and the pipe's reader drains it
  EXPECT_EQ(ran, 2);
  loop.call_soon_threadsafe([&] { ++ran; });
  loop.call_soon_threadsafe([&] { ++ran; });
  EXPECT_EQ(writes(), 2U);  // one more: a wake-up pending again, not lost
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, 4);
}

INSTANTIATE_TEST_SUITE_P(HiddenExample, OncePerDrain,
                         ::testing::Values(SelfPipe::Kind::kSocketPair, SelfPipe::Kind::kEventFd),
                         [](const ::testing::TestParamInfo<SelfPipe::Kind>& info) {
                           return std::string(name_of(info.param));
                         });

TEST(HiddenExample, ASignalCaughtOnAnotherThreadWakesTheLoopAsleepInItsSelector) {
  EventLoop loop;  // the real clock, and nothing to do but wait
  bool handled = false;
  bool gave_up = false;
  loop.add_signal_handler(SIGUSR1, [&] {
    handled = true;
    loop.stop();
  });
  loop.call_later(5s, [&] {
    gave_up = true;
    loop.stop();
  });
  std::thread raiser;
  loop.call_soon([&] {
    raiser = std::thread([] {
      std::this_thread::sleep_for(50ms);  // the loop is asleep by then
      ::raise(SIGUSR1);                   // the C handler runs on this thread, not the loop's
    });
  });
  loop.run_forever();
  raiser.join();
  EXPECT_TRUE(handled);
  EXPECT_FALSE(gave_up);
}

TEST(HiddenExample, TheCHandlerLeavesErrnoAsItFoundItEvenWhenItsWriteFails) {
  // A socket pair holds a few hundred small writes before it refuses more
  // (EAGAIN); two thousand deliveries fill it.
  VirtualClock clock;
  EventLoop loop(clock, make_default_selector(), SelfPipe::Kind::kSocketPair,
                 ThreadsafeQueue::WakeRule::kOncePerDrain);
  int ran = 0;
  loop.add_signal_handler(SIGUSR2, [&] { ++ran; });
  constexpr int kDeliveries = 2000;
  int changed = 0;
  for (int i = 0; i < kDeliveries; ++i) {
    errno = EDOM;
    ::raise(SIGUSR2);
    if (errno != EDOM) ++changed;
  }
  EXPECT_EQ(changed, 0);
  testing::run_one_turn(loop);  // the reader drains the pipe and queues the handler
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, kDeliveries);  // once per delivery, the full pipe notwithstanding
}

}  // namespace
}  // namespace looplab
