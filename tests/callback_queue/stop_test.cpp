// run_forever() and stop(): asyncio's exact semantics (asyncio-semantics.md 1.4).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

TEST(Stop, BeforeRunForeverRunsExactlyOneTurn) {
  EventLoop loop;
  std::vector<std::string> ran;
  loop.call_soon([&] {
    ran.push_back("A");
    loop.call_soon([&] { ran.push_back("child of A"); });
  });
  loop.stop();
  loop.run_forever();
  EXPECT_EQ(ran, (std::vector<std::string>{"A"}));
  EXPECT_FALSE(loop.is_running());
}

TEST(Stop, InsideACallbackFinishesTheTurnAndKeepsTheRestQueued) {
  EventLoop loop;
  std::vector<std::string> ran;
  loop.call_soon([&] {
    ran.push_back("A");
    loop.stop();
    loop.call_soon([&] { ran.push_back("C"); });
  });
  loop.call_soon([&] { ran.push_back("B"); });  // same snapshot as A: still runs
  loop.run_forever();
  EXPECT_EQ(ran, (std::vector<std::string>{"A", "B"}));
  testing::run_one_turn(loop);  // C was kept for the next run
  EXPECT_EQ(ran, (std::vector<std::string>{"A", "B", "C"}));
}

TEST(Stop, IsIdempotentAndClearedWhenRunForeverReturns) {
  EventLoop loop;
  int turns = 0;
  loop.stop();
  loop.stop();
  loop.call_soon([&] { ++turns; });
  loop.run_forever();
  EXPECT_EQ(turns, 1);

  // The flag was cleared: this run goes on until a callback stops it.
  int hops = 0;
  std::function<void()> hop = [&] {
    if (++hops == 5) {
      loop.stop();
    } else {
      loop.call_soon(hop);
    }
  };
  loop.call_soon(hop);
  loop.run_forever();
  EXPECT_EQ(hops, 5);
}

TEST(Stop, IsRunningIsTrueOnlyInsideRunForever) {
  EventLoop loop;
  bool inside = false;
  loop.call_soon([&] { inside = loop.is_running(); });
  EXPECT_FALSE(loop.is_running());
  testing::run_one_turn(loop);
  EXPECT_TRUE(inside);
  EXPECT_FALSE(loop.is_running());
}

TEST(Stop, GetRunningLoopIsTheLoopInsideRunForever) {
  EventLoop loop;
  EventLoop* seen = nullptr;
  loop.call_soon([&] { seen = &get_running_loop(); });
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, &loop);
  EXPECT_THROW(get_running_loop(), RuntimeError);
}

#if LOOPLAB_STAGE < 3
// Stages 01 and 02 have nothing to wait on (no I/O): an empty queue with no
// stop() requested would hang, so run_forever() says so instead. From stage 03
// on, the loop blocks in the selector, as asyncio does.
TEST(Stop, RunForeverWithNothingToDoIsAClearErrorNotAHang) {
  EventLoop loop;
  try {
    loop.run_forever();
    FAIL() << "run_forever() returned";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("wait forever"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(loop.is_running());
  bool ran = false;  // and the loop is still usable
  loop.call_soon([&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

TEST(Stop, ALastCallbackThatForgetsToStopEndsWithTheSameError) {
  EventLoop loop;
  int runs = 0;
  loop.call_soon([&] { ++runs; });
  EXPECT_THROW(loop.run_forever(), RuntimeError);
  EXPECT_EQ(runs, 1);
}
#endif

}  // namespace
}  // namespace looplab
