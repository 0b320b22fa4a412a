// Equal deadlines run in CPython's heapq order, not FIFO (asyncio-semantics.md 2.2).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

std::string order_of(int timers) {
  VirtualClock clock;
  EventLoop loop(clock);
  std::string ran;
  for (int i = 0; i < timers; ++i) {
    char name = static_cast<char>('a' + i);
    loop.call_at(loop.time() + 5s, [&ran, name] { ran += name; });
  }
  // No other timer in the heap (it would change the tie order): move the
  // clock by hand and run one turn, in which all of them are due.
  clock.advance(5s);
  loop.stop();
  loop.run_forever();
  return ran;
}

TEST(EqualDeadlines, RunInHeapqOrderLikeCPython) {
  // Pushing a, b, c, ... with one deadline and popping them all, in CPython 3.12 and 3.13.
  EXPECT_EQ(order_of(2), "ab");
  EXPECT_EQ(order_of(3), "abc");
  EXPECT_EQ(order_of(4), "acbd");
  EXPECT_EQ(order_of(5), "acebd");
  EXPECT_EQ(order_of(6), "acfebd");
  EXPECT_EQ(order_of(7), "acfgebd");
  EXPECT_EQ(order_of(8), "acgfhebd");
}

}  // namespace
}  // namespace looplab
