// An example of an instructor's hidden tests for assignment 04 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
// Each backend this build has is asked the same two questions.
#include <gtest/gtest.h>
#include <unistd.h>

#include "io/socket_pair.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "pollers/backends.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

class HiddenExample : public ::testing::TestWithParam<SelectorKind> {};

TEST_P(HiddenExample, AReaderRunsEveryTurnWhileDataWaits) {
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  testing::SocketPair pair;
  ASSERT_EQ(::write(pair.right(), "x", 1), 1);
  int reads = 0;
  loop.add_reader(pair.left(), [&] { ++reads; });
  for (int i = 0; i < 3; ++i) testing::run_one_turn(loop);
  EXPECT_EQ(reads, 3);  // level-triggered: nobody read the byte
  loop.remove_reader(pair.left());
}

TEST_P(HiddenExample, APeerThatHangsUpWakesTheReader) {
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  testing::SocketPair pair;
  bool woke = false;
  loop.add_reader(pair.left(), [&] {
    woke = true;
    loop.stop();
  });
  loop.call_soon([&] { pair.close_right(); });
  loop.run_forever();
  EXPECT_TRUE(woke);
  loop.remove_reader(pair.left());
}

INSTANTIATE_TEST_SUITE_P(Backends, HiddenExample, ::testing::ValuesIn(compiled_selectors()),
                         testing::backend_name);

}  // namespace
}  // namespace looplab
