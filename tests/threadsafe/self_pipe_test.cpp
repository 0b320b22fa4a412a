// The self-pipe: the loop's own descriptor, written by posting threads and
// read by the loop; both kinds and both wake-up rules.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <tuple>

#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

TEST(SelfPipe, AFreshLoopWatchesOnlyItsOwnDescriptor) {
  EventLoop loop;
  EXPECT_EQ(loop.selector().size(), EventLoop::internal_fds());
  EXPECT_EQ(EventLoop::internal_fds(), 1U);
}

TEST(SelfPipe, OnAVirtualClockAnIdleLoopRaisesInsteadOfSleepingForever) {
  testing::TestLoop t;
  std::string error = testing::thrown_by([&] { t.loop.run_forever(); });
  EXPECT_NE(error.find("RuntimeError: run_forever(): on a virtual clock"), std::string::npos)
      << error;
  bool ran = false;
  t.loop.call_soon([&] { ran = true; });  // still usable
  t.turn();
  EXPECT_TRUE(ran);
}

using Config = std::tuple<SelfPipe::Kind, ThreadsafeQueue::WakeRule>;

class EveryConfig : public ::testing::TestWithParam<Config> {};

TEST_P(EveryConfig, EveryPostWakesTheLoop) {
  auto [kind, rule] = GetParam();
  SteadyClock clock;
  EventLoop loop(clock, make_default_selector(), kind, rule);
  // Ping-pong: the thread posts, then waits until the loop has run that
  // callback before posting the next, so the loop is asleep for most posts.
  constexpr int kRounds = 500;
  std::atomic<int> done{0};
  std::thread poster;
  loop.call_soon([&] {
    poster = std::thread([&] {
      for (int i = 1; i <= kRounds; ++i) {
        loop.call_soon_threadsafe([&, i] {
          done.store(i, std::memory_order_release);
          if (i == kRounds) loop.stop();
        });
        while (done.load(std::memory_order_acquire) < i) std::this_thread::yield();
      }
    });
  });
  loop.run_forever();
  poster.join();
  EXPECT_EQ(done.load(), kRounds);
}

TEST_P(EveryConfig, OnePostThatFindsNoWakeUpPendingWritesOnce) {
  auto [kind, rule] = GetParam();
  VirtualClock clock;
  EventLoop loop(clock, make_default_selector(), kind, rule);
  int ran = 0;
  for (int i = 0; i < 100; ++i) loop.call_soon_threadsafe([&] { ++ran; });  // not running: queued
  std::uint64_t writes = loop.threadsafe_queue().self_pipe().writes();
  EXPECT_EQ(writes, rule == ThreadsafeQueue::WakeRule::kEveryPost ? 100U : 1U);
  loop.call_soon([&] { loop.stop(); });
  loop.run_forever();
  EXPECT_EQ(ran, 100);
}

std::string config_name(const ::testing::TestParamInfo<Config>& info) {
  auto [kind, rule] = info.param;
  return std::string(name_of(kind)) +
         (rule == ThreadsafeQueue::WakeRule::kEveryPost ? "_every_post" : "_once_per_drain");
}

INSTANTIATE_TEST_SUITE_P(
    SelfPipe, EveryConfig,
    ::testing::Combine(::testing::Values(SelfPipe::Kind::kSocketPair, SelfPipe::Kind::kEventFd),
                       ::testing::Values(ThreadsafeQueue::WakeRule::kEveryPost,
                                         ThreadsafeQueue::WakeRule::kOncePerDrain)),
    config_name);

}  // namespace
}  // namespace looplab
