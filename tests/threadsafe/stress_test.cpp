// The stress test of chapter 9: several threads post a million callbacks in
// all while the loop also runs a timer; every callback runs exactly once,
// and each thread's in the order it posted them. Under TSan this is also
// the proof that the handover is free of data races.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

int callbacks_in_all() {
  const char* chosen = std::getenv("LOOPLAB_STRESS_CALLBACKS");
  return chosen != nullptr ? std::atoi(chosen) : 1'000'000;
}

TEST(ThreadsafeStress, AMillionCallbacksFromFourThreadsRunOnceEachInPerThreadOrder) {
  constexpr int kThreads = 4;
  const int per_thread = callbacks_in_all() / kThreads;
  EventLoop loop;
  std::vector<int> next(kThreads, 0);  // the loop's thread only
  int out_of_order = 0;
  int total = 0;
  int ticks = 0;
  // A timer that keeps rescheduling itself: the loop has timers to run too.
  std::function<void()> tick = [&] {
    ++ticks;
    loop.call_later(1ms, tick);
  };
  loop.call_soon(tick);
  std::vector<std::thread> posters;
  loop.call_soon([&] {
    for (int t = 0; t < kThreads; ++t) {
      posters.emplace_back([&, t] {
        for (int i = 0; i < per_thread; ++i) {
          loop.call_soon_threadsafe([&, t, i] {
            int& expected = next[static_cast<std::size_t>(t)];
            if (i != expected) ++out_of_order;
            expected = i + 1;
            if (++total == kThreads * per_thread) loop.stop();
          });
          if (i % 1024 == 0) std::this_thread::yield();  // two cores: let the loop in
        }
      });
    }
  });
  loop.run_forever();
  for (std::thread& poster : posters) poster.join();
  EXPECT_EQ(total, kThreads * per_thread);
  EXPECT_EQ(out_of_order, 0);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(next[static_cast<std::size_t>(t)], per_thread);
  EXPECT_GE(ticks, 1);
}

}  // namespace
}  // namespace looplab
