// add_signal_handler(): a signal's handler runs as a normal callback, in a
// later turn, once per delivery; asyncio's errors for what cannot work.
#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using testing::thrown_by;

bool is_default_action(int sig) {
  struct sigaction current {};
  sigaction(sig, nullptr, &current);
  return current.sa_handler == SIG_DFL;
}

TEST(Signals, TheHandlerRunsTwoTurnsAfterTheDeliveryAsACallback) {
  testing::TestLoop t;
  int ran = 0;
  t.loop.add_signal_handler(SIGUSR1, [&] { ++ran; });
  ::raise(SIGUSR1);  // the C handler counts it and writes to the self-pipe
  t.turn();          // the self-pipe's reader sees it and queues the handler
  EXPECT_EQ(ran, 0);
  t.turn();
  EXPECT_EQ(ran, 1);
  t.turn();
  EXPECT_EQ(ran, 1);
}

TEST(Signals, EachDeliveryRunsTheHandlerOnce) {
  testing::TestLoop t;
  int ran = 0;
  t.loop.add_signal_handler(SIGUSR2, [&] { ++ran; });
  ::raise(SIGUSR2);
  ::raise(SIGUSR2);
  t.turns(3);
  EXPECT_EQ(ran, 2);
}

TEST(Signals, ASecondHandlerReplacesTheFirst) {
  testing::TestLoop t;
  std::string ran;
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "first "; });
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "second "; });
  ::raise(SIGUSR1);
  t.turns(2);
  EXPECT_EQ(ran, "second ");
}

TEST(Signals, AHandlerReplacedOrRemovedStillRunsForTheDeliveriesAlreadyQueued) {
  testing::TestLoop t;
  std::string ran;
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "first "; });
  ::raise(SIGUSR1);
  ::raise(SIGUSR1);
  t.turn();  // both deliveries queue the first handler
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "second "; });
  t.turn();
  EXPECT_EQ(ran, "first first ") << "asyncio does not cancel a handler it replaces";
  ::raise(SIGUSR1);
  t.turn();
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));
  t.turn();
  EXPECT_EQ(ran, "first first second ") << "nor one it removes";
}

TEST(Signals, DifferentSignalsRunInTheOrderTheyCame) {
  testing::TestLoop t;
  std::string ran;
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "USR1 "; });
  t.loop.add_signal_handler(SIGUSR2, [&] { ran += "USR2 "; });
  ::raise(SIGUSR2);
  ::raise(SIGUSR1);
  ::raise(SIGUSR2);
  t.turns(2);
  EXPECT_EQ(ran, "USR2 USR1 USR2 ") << "asyncio reads a byte per delivery, in order";
}

TEST(Signals, ADeliveryNotReadYetGoesToTheHandlerAddedAfterARemoval) {
  testing::TestLoop t;
  std::string ran;
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "old "; });
  ::raise(SIGUSR1);
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));
  t.loop.add_signal_handler(SIGUSR1, [&] { ran += "new "; });
  t.turns(2);
  EXPECT_EQ(ran, "new ");
}

TEST(Signals, ALoopDoesNotRunTheDeliveriesThatWokeAnotherLoop) {
  std::string ran;
  testing::TestLoop first;
  first.loop.add_signal_handler(SIGUSR1, [&] { ran += "first "; });
  ::raise(SIGUSR1);  // for the first loop's self-pipe, which nobody reads
  testing::TestLoop second;
  second.loop.add_signal_handler(SIGUSR1, [&] { ran += "second "; });
  second.turns(2);
  EXPECT_EQ(ran, "");
  ::raise(SIGUSR1);
  second.turns(2);
  EXPECT_EQ(ran, "second ");
}

TEST(Signals, RemovingRestoresTheDefaultActionAndSaysWhetherThereWasAHandler) {
  testing::TestLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] {});
  EXPECT_FALSE(is_default_action(SIGUSR1));
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));
  EXPECT_TRUE(is_default_action(SIGUSR1));
  EXPECT_FALSE(t.loop.remove_signal_handler(SIGUSR1));
}

TEST(Signals, CloseRemovesEveryHandler) {
  testing::TestLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] {});
  t.loop.add_signal_handler(SIGUSR2, [] {});
  t.loop.close();
  EXPECT_TRUE(is_default_action(SIGUSR1));
  EXPECT_TRUE(is_default_action(SIGUSR2));
}

TEST(Signals, BadSignalNumbersAreValueErrors) {
  testing::TestLoop t;
  for (int sig : {0, -1, 32, 33, 65}) {
    EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(sig, [] {}); }),
              "ValueError: invalid signal number " + std::to_string(sig));
    EXPECT_EQ(thrown_by([&] { t.loop.remove_signal_handler(sig); }),
              "ValueError: invalid signal number " + std::to_string(sig));
  }
}

TEST(Signals, KillAndStopCannotBeCaughtAndTheLoopStaysUsable) {
  testing::TestLoop t;
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(SIGKILL, [] {}); }),
            "RuntimeError: sig 9 cannot be caught");
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(SIGSTOP, [] {}); }),
            "RuntimeError: sig 19 cannot be caught");
  EXPECT_FALSE(t.loop.remove_signal_handler(SIGKILL));  // nothing was added
  int ran = 0;
  t.loop.add_signal_handler(SIGUSR1, [&] { ++ran; });
  ::raise(SIGUSR1);
  t.turns(2);
  EXPECT_EQ(ran, 1);
}

TEST(Signals, OnlyTheMainThreadMayAddAHandler) {
  testing::TestLoop t;
  std::string error;
  std::thread([&] {
    error = thrown_by([&] { t.loop.add_signal_handler(SIGUSR1, [] {}); });
  }).join();
  EXPECT_EQ(error, "RuntimeError: set_wakeup_fd only works in main thread of the main interpreter");
  EXPECT_TRUE(is_default_action(SIGUSR1));
}

// asyncio forgets the handler before signal.signal() refuses the thread;
// looplab refuses first and keeps it (the table is the loop thread's).
TEST(Signals, AnotherThreadCannotRemoveAHandler) {
  testing::TestLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] {});
  std::string error;
  std::thread([&] { error = thrown_by([&] { t.loop.remove_signal_handler(SIGUSR1); }); }).join();
  EXPECT_EQ(error, "ValueError: signal only works in main thread of the main interpreter");
  EXPECT_FALSE(is_default_action(SIGUSR1));
  EXPECT_TRUE(t.loop.remove_signal_handler(SIGUSR1));  // the main thread can
  EXPECT_TRUE(is_default_action(SIGUSR1));
}

TEST(Signals, AClosedLoopRefusesAValidSignalButAnInvalidOneIsStillAValueError) {
  testing::TestLoop t;
  t.loop.close();
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(SIGUSR1, [] {}); }),
            "RuntimeError: Event loop is closed");
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(0, [] {}); }),
            "ValueError: invalid signal number 0");
}

// asyncio checks the signal number, then the loop; an empty callback (which
// asyncio would take, and fail on when the signal comes) is refused after both.
TEST(Signals, TheNumberIsCheckedFirstThenTheLoopThenTheCallback) {
  testing::TestLoop t;
  std::function<void()> empty;
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(0, empty); }),
            "ValueError: invalid signal number 0");
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(SIGUSR1, empty); }),
            "TypeError: a callable object was expected by add_signal_handler(), got an empty "
            "callback");
  EXPECT_TRUE(is_default_action(SIGUSR1));
  t.loop.close();
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(65, empty); }),
            "ValueError: invalid signal number 65");
  EXPECT_EQ(thrown_by([&] { t.loop.add_signal_handler(SIGUSR1, empty); }),
            "RuntimeError: Event loop is closed");
}

TEST(Signals, AHandlersExceptionGoesToTheExceptionHandler) {
  testing::TestLoop t;
  t.loop.add_signal_handler(SIGUSR1, [] { throw ValueError("bad handler"); });
  ::raise(SIGUSR1);
  t.turns(2);
  ASSERT_EQ(t.reports.size(), 1U);
  EXPECT_NE(t.reports[0].find("Exception in callback"), std::string::npos) << t.reports[0];
  EXPECT_NE(t.reports[0].find("ValueError: bad handler"), std::string::npos) << t.reports[0];
}

}  // namespace
}  // namespace looplab
