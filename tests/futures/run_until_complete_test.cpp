// loop.run_until_complete(future) (asyncio-semantics.md 1.4): runs the loop
// until the future is done and returns (or raises) its outcome. The stop is
// a done callback, so the loop stops at the end of the turn AFTER the one in
// which the future completed.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::run_one_turn;
using testing::TestLoop;
using testing::thrown_by;

// Queues a callback that runs in `turns` consecutive turns (counting them)
// and then stops the loop: a loop stopped any earlier leaves `count` short.
struct TurnCounter {
  EventLoop* loop;
  int* count;
  int turns;
  void operator()() const {
    if (++*count == turns) {
      loop->stop();
    } else {
      loop->call_soon(*this);
    }
  }
};

TEST(RunUntilComplete, ReturnsTheResult) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.call_soon([&] { future.set_result(42); });
  EXPECT_EQ(loop.run_until_complete(future), 42);
  EXPECT_FALSE(loop.is_running());
}

TEST(RunUntilComplete, ReturnsACopyThatOutlivesATemporaryFuture) {
  VirtualClock clock;
  EventLoop loop(clock);
  // The future is a temporary, gone at the end of the statement: a reference
  // into its state would dangle (and ASan would say so on the read below).
  auto make_resolved = [&loop] {
    Future<std::string> future = loop.create_future<std::string>();
    future.set_result(std::string(64, 'x'));  // longer than any small-string buffer
    return future;
  };
  static_assert(std::is_same_v<decltype(loop.run_until_complete(make_resolved())), std::string>);
  const std::string& value = loop.run_until_complete(make_resolved());
  EXPECT_EQ(value, std::string(64, 'x'));
}

TEST(RunUntilComplete, AVoidFutureReturnsNothing) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> future = loop.create_future();
  loop.call_soon([&] { future.set_result(); });
  loop.run_until_complete(future);
  EXPECT_TRUE(future.done());
}

TEST(RunUntilComplete, ThrowsTheFuturesExceptionWhichCountsAsRetrieved) {
  TestLoop r;
  {
    Future<int> future = r.loop.create_future<int>();
    r.loop.call_soon([&] { future.set_exception(ValueError("failed")); });
    EXPECT_EQ(thrown_by([&] { r.loop.run_until_complete(future); }), "ValueError: failed");
  }
  EXPECT_TRUE(r.reports.empty());  // no "never retrieved"
}

TEST(RunUntilComplete, ACancelledFutureThrowsCancelledErrorWithItsMessage) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.call_soon([&] { future.cancel("enough"); });
  try {
    loop.run_until_complete(future);
    FAIL() << "no CancelledError";
  } catch (const CancelledError& error) {
    EXPECT_EQ(error.message(), "enough");
  }
}

TEST(RunUntilComplete, StopsOneTurnAfterCompletionSoCallbacksQueuedInTheCompletionTurnRun) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> ran;
  future.add_done_callback([&](Future<int>&) {
    ran.push_back("turn 2: done callback");
    loop.call_soon([&] { ran.push_back("turn 3: queued by the done callback"); });
  });
  loop.call_soon([&] {
    ran.push_back("turn 1: set_result");
    future.set_result(1);
    loop.call_soon([&] { ran.push_back("turn 2: queued after set_result"); });
  });
  EXPECT_EQ(loop.run_until_complete(future), 1);
  EXPECT_EQ(ran, (std::vector<std::string>{"turn 1: set_result", "turn 2: done callback",
                                           "turn 2: queued after set_result"}));
  run_one_turn(loop);  // what the stop turn queued is still there
  EXPECT_EQ(ran.back(), "turn 3: queued by the done callback");
}

TEST(RunUntilComplete, AFutureAlreadyDoneRunsExactlyOneTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(5);
  std::vector<std::string> ran;
  loop.call_soon([&] {
    ran.push_back("turn 1");
    loop.call_soon([&] { ran.push_back("turn 2"); });
  });
  EXPECT_EQ(loop.run_until_complete(future), 5);
  EXPECT_EQ(ran, std::vector<std::string>{"turn 1"});
}

TEST(RunUntilComplete, AFutureOfAnotherLoopIsAValueError) {
  VirtualClock clock;
  EventLoop loop(clock);
  EventLoop other(clock);
  Future<int> foreign = other.create_future<int>();
  EXPECT_EQ(thrown_by([&] { loop.run_until_complete(foreign); }),
            "ValueError: The future belongs to a different loop than the one specified as the "
            "loop argument");
  EXPECT_FALSE(loop.is_running());
  // Nothing was attached to the foreign future: completing it stops nobody.
  foreign.set_result(1);
  int turns = 0;
  other.call_soon(TurnCounter{&other, &turns, 3});
  other.run_forever();
  EXPECT_EQ(turns, 3);
}

TEST(RunUntilComplete, ALoopStoppedBeforeTheFutureCompletedIsARuntimeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.call_soon([&] { loop.stop(); });
  EXPECT_EQ(thrown_by([&] { loop.run_until_complete(future); }),
            "RuntimeError: Event loop stopped before Future completed.");
  EXPECT_FALSE(future.done());
}

TEST(RunUntilComplete, ItsStopCallbackIsRemovedWhenItReturns) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.call_soon([&] { loop.stop(); });
  EXPECT_THROW(loop.run_until_complete(future), RuntimeError);
  // The future completes later, during a plain run_forever(): if the stop
  // callback were still attached, that run would end two turns early.
  int turns = 0;
  loop.call_soon([&] { future.set_result(1); });
  loop.call_soon(TurnCounter{&loop, &turns, 4});
  loop.run_forever();
  EXPECT_EQ(turns, 4) << "TurnCounter runs once per turn and stops the loop in its 4th turn; "
                         "fewer turns mean something else stopped the loop first: the stop "
                         "callback of the earlier run_until_complete() was left on the future";
}

TEST(RunUntilComplete, AnErrorEscapingTheLoopPropagatesAndDetachesTheStopCallback) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.call_soon([] { throw SystemExit(3); });
  EXPECT_THROW(loop.run_until_complete(future), SystemExit);
  EXPECT_FALSE(loop.is_running());
  int turns = 0;
  loop.call_soon([&] { future.set_result(1); });
  loop.call_soon(TurnCounter{&loop, &turns, 4});
  loop.run_forever();
  EXPECT_EQ(turns, 4) << "TurnCounter runs once per turn and stops the loop in its 4th turn; "
                         "fewer turns mean something else stopped the loop first: the stop "
                         "callback of the earlier run_until_complete() was left on the future";
}

// The stop callback's id is its own: removing it (here, after an error
// escaped the loop) must leave every other callback of the future alone,
// whatever id they were added with, 0 included (internal callbacks, such as
// a task's wakeup in chapter 6, are added with add_done_callback_erased).
TEST(RunUntilComplete, RemovingItsStopCallbackLeavesOtherCallbacksWithAnyIdAlone) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> ran;
  future.state().add_done_callback_erased(Callback([&] { ran.push_back("id 0"); }), 0);
  DoneCallbackId mine = future.add_done_callback([&](Future<int>&) { ran.push_back("public"); });
  loop.call_soon([] { throw SystemExit(3); });
  EXPECT_THROW(loop.run_until_complete(future), SystemExit);
  future.set_result(1);
  run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"id 0", "public"}))
      << "run_until_complete() removed a callback that was not its own: its stop callback "
         "needs an id that no other callback can have (id "
      << mine << " was the public one)";
}

TEST(RunUntilComplete, OnAClosedLoopIsARuntimeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.close();
  EXPECT_EQ(thrown_by([&] { loop.run_until_complete(future); }),
            "RuntimeError: Event loop is closed");
}

TEST(RunUntilComplete, FromInsideARunningLoopIsARuntimeErrorAndTheLoopCarriesOn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> inner = loop.create_future<int>();
  Future<int> outer = loop.create_future<int>();
  std::string error;
  loop.call_soon([&] {
    error = thrown_by([&] { loop.run_until_complete(inner); });
    inner.set_result(1);  // must not stop the outer run: nothing was attached
    loop.call_soon([&] { loop.call_soon([&] { outer.set_result(2); }); });
  });
  EXPECT_EQ(loop.run_until_complete(outer), 2);
  EXPECT_EQ(error, "RuntimeError: This event loop is already running");
}

TEST(RunUntilComplete, AFutureEndingWithSystemExitDoesNotStopTheNextRun) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> exiting = loop.create_future<int>();
  loop.call_soon([&] {
    exiting.set_exception(std::make_exception_ptr(SystemExit(2)));  // queues the stop callback
    throw SystemExit(2);                                            // and leaves the loop
  });
  EXPECT_THROW(loop.run_until_complete(exiting), SystemExit);
  Future<int> next = loop.create_future<int>();
  loop.call_soon([&] { loop.call_soon([&] { next.set_result(7); }); });
  EXPECT_EQ(loop.run_until_complete(next), 7)
      << "the stop callback left queued saw SystemExit and did not stop this run "
         "(asyncio's _run_until_complete_cb)";
}

TEST(RunUntilComplete, TheLoopCanRunUntilAnotherFutureAfterwards) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> first = loop.create_future<int>();
  Future<int> second = loop.create_future<int>();
  loop.call_soon([&] { first.set_result(1); });
  EXPECT_EQ(loop.run_until_complete(first), 1);
  loop.call_soon([&] { second.set_result(2); });
  EXPECT_EQ(loop.run_until_complete(second), 2);
}

TEST(RunUntilComplete, WithNothingThatCouldCompleteTheFutureItRaisesInsteadOfHanging) {
  // asyncio would block in select() for ever; looplab's loop says why it cannot wait.
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::string error = thrown_by([&] { loop.run_until_complete(future); });
#if LOOPLAB_STAGE >= 9
  // From stage 09 the loop could always be woken by another thread, and on
  // the real clock it waits as asyncio's does; a virtual clock still says why not.
  EXPECT_TRUE(error.starts_with("RuntimeError: run_forever(): on a virtual clock")) << error;
#else
  EXPECT_TRUE(error.starts_with("RuntimeError: run_forever(): nothing is scheduled")) << error;
#endif
  // And it leaves nothing attached: a later completion stops no run.
  int turns = 0;
  loop.call_soon([&] { future.set_result(1); });
  loop.call_soon(TurnCounter{&loop, &turns, 4});
  loop.run_forever();
  EXPECT_EQ(turns, 4) << "TurnCounter runs once per turn and stops the loop in its 4th turn; "
                         "fewer turns mean something else stopped the loop first: the stop "
                         "callback of the earlier run_until_complete() was left on the future";
}

TEST(RunUntilComplete, TheResultOfAFutureCompletedByATimerArrivesAtItsTime) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<std::string> future = loop.create_future<std::string>();
  loop.call_later(1500ms, [&] { future.set_result("late"); });
  EXPECT_EQ(loop.run_until_complete(future), "late");
  EXPECT_DOUBLE_EQ(testing::seconds(loop.time()), 1.5);
}

}  // namespace
}  // namespace looplab
