// run()'s Ctrl-C, as asyncio.run()'s (runners.py, _on_sigint): the first
// SIGINT cancels the main task and run() raises KeyboardInterrupt once the
// cancellation has ended it; a second raises KeyboardInterrupt at once; a
// main that takes the cancellation back returns normally. Only on the main
// thread, and only over SIGINT's default action. raise() delivers the
// signal before it returns, so no test waits for it.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using Log = std::vector<std::string>;

bool sigint_is_default() {
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  return current.sa_handler == SIG_DFL;
}

// Each test starts with SIGINT at its default action (a shell without job
// control starts background jobs with it ignored, and then run() leaves it
// alone), and leaves it as it found it.
class RunSigint : public ::testing::Test {
 protected:
  void SetUp() override {
    sigaction(SIGINT, nullptr, &saved_);
    signal(SIGINT, SIG_DFL);
  }
  void TearDown() override { sigaction(SIGINT, &saved_, nullptr); }

 private:
  struct sigaction saved_ {};
};

Coro<int> interrupted(Log* log) {
  ::raise(SIGINT);  // Ctrl-C
  try {
    co_await sleep(1h);
  } catch (const CancelledError&) {
    log->push_back("main: cancelled");
    throw;
  }
  co_return 0;
}

TEST_F(RunSigint, TheFirstCancelsMainAndRunRaisesKeyboardInterrupt) {
  VirtualClock clock;
  Log log;
  EXPECT_EQ(testing::thrown_by([&] { run(interrupted(&log), clock); }), "KeyboardInterrupt");
  EXPECT_EQ(log, (Log{"main: cancelled"}));
  EXPECT_TRUE(sigint_is_default());  // given back
}

Coro<int> takes_it_back(Log* log) {
  ::raise(SIGINT);
  try {
    co_await sleep(1h);
  } catch (const CancelledError&) {
    log->push_back("main: cancelled, returns");
  }
  co_return 42;
}

TEST_F(RunSigint, AMainThatSwallowsTheCancellationReturnsItsResult) {
  VirtualClock clock;
  Log log;
  EXPECT_EQ(run(takes_it_back(&log), clock), 42);
  EXPECT_EQ(log, (Log{"main: cancelled, returns"}));
}

Coro<int> stubborn(Log* log) {
  ::raise(SIGINT);
  try {
    co_await sleep(1h);
  } catch (const CancelledError&) {
    log->push_back("main: first cancel swallowed");
  }
  // Ctrl-C again, from a plain callback, as if it came while the loop waited:
  // KeyboardInterrupt, whatever main does.
  get_running_loop().call_soon([] { ::raise(SIGINT); });
  try {
    co_await sleep(1h);
  } catch (const CancelledError&) {
    log->push_back("main: cancelled by run()'s cleanup");
    throw;
  }
  co_return 0;
}

TEST_F(RunSigint, ASecondRaisesKeyboardInterruptAtOnce) {
  VirtualClock clock;
  Log log;
  EXPECT_EQ(testing::thrown_by([&] { run(stubborn(&log), clock); }), "KeyboardInterrupt");
  EXPECT_EQ(log, (Log{"main: first cancel swallowed", "main: cancelled by run()'s cleanup"}));
  EXPECT_TRUE(sigint_is_default());
}

Coro<int> main_task_cancelled_elsewhere() {
  TaskBase* self = TaskBase::current();
  self->cancel();
  co_await sleep(1h);
  co_return 0;
}

TEST_F(RunSigint, WithoutASigintACancelledMainIsACancelledError) {
  VirtualClock clock;
  EXPECT_EQ(testing::thrown_by([&] { run(main_task_cancelled_elsewhere(), clock); }),
            "CancelledError");
}

int program_handler_calls = 0;
extern "C" void program_handler(int /*sig*/) { ++program_handler_calls; }

Coro<int> interrupted_quietly() {
  ::raise(SIGINT);
  co_await sleep(1s);
  co_return 7;
}

TEST_F(RunSigint, AProgramsOwnHandlerIsLeftAlone) {
  struct sigaction own {};
  own.sa_handler = program_handler;
  sigemptyset(&own.sa_mask);
  ASSERT_EQ(sigaction(SIGINT, &own, nullptr), 0);
  VirtualClock clock;
  program_handler_calls = 0;
  EXPECT_EQ(run(interrupted_quietly(), clock), 7);
  EXPECT_EQ(program_handler_calls, 1);
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  EXPECT_EQ(current.sa_handler, &program_handler);
}

Coro<int> finishes_while_interrupted() {
  // Delivered after main's last step: the loop does not poll again.
  get_running_loop().call_soon([] { ::raise(SIGINT); });
  co_return 1;
}

TEST_F(RunSigint, OneThatCameInTheLastTurnIsAKeyboardInterrupt) {
  VirtualClock clock;
  EXPECT_EQ(testing::thrown_by([&] { run(finishes_while_interrupted(), clock); }),
            "KeyboardInterrupt");
}

Coro<int> interrupted_from_another_thread(Log* log) {
  // A future nobody completes, on the real clock: the loop blocks in its
  // selector with no timeout until the runner's pipe wakes it.
  Future<int> never = get_running_loop().create_future<int>();
  std::thread ctrl_c([] { ::kill(::getpid(), SIGINT); });
  ctrl_c.detach();
  try {
    co_await never;
  } catch (const CancelledError&) {
    log->push_back("main: cancelled");
    throw;
  }
  co_return 0;
}

TEST_F(RunSigint, ACtrlCFromOutsideWakesALoopThatWaits) {
  Log log;
  EXPECT_EQ(testing::thrown_by([&] { run(interrupted_from_another_thread(&log)); }),
            "KeyboardInterrupt");
  EXPECT_EQ(log, (Log{"main: cancelled"}));
}

std::string default_action_now() { return sigint_is_default() ? "default" : "the runner's"; }

Coro<int> watches_the_action(Log* log) {
  ::raise(SIGINT);
  try {
    co_await sleep(1h);
  } catch (const CancelledError&) {
    log->push_back("after the first: " + default_action_now());
  }
  ::raise(SIGINT);
  log->push_back("after the second: " + default_action_now());
  co_await sleep(1h);
  co_return 0;
}

TEST_F(RunSigint, ASecondGivesSigintItsDefaultActionBackAtOnce) {
  // If the loop were stuck in a step, the third Ctrl-C would still end the program.
  VirtualClock clock;
  Log log;
  EXPECT_EQ(testing::thrown_by([&] { run(watches_the_action(&log), clock); }), "KeyboardInterrupt");
  EXPECT_EQ(log, (Log{"after the first: the runner's", "after the second: default"}));
}

Coro<bool> sees_the_default_action() {
  co_await sleep(0s);
  co_return sigint_is_default();
}

TEST_F(RunSigint, OnAnotherThreadSigintIsLeftAlone) {
  bool untouched = false;
  std::thread other([&] {
    VirtualClock clock;
    untouched = run(sees_the_default_action(), clock);
  });
  other.join();
  EXPECT_TRUE(untouched);
}

Coro<bool> loop_handler_takes_sigint(Log* log) {
  EventLoop& loop = get_running_loop();
  loop.add_signal_handler(SIGINT, [log] { log->push_back("the loop's handler"); });
  ::raise(SIGINT);
  co_await sleep(0s);
  co_await sleep(0s);
  bool removed = loop.remove_signal_handler(SIGINT);
  co_return removed;
}

TEST_F(RunSigint, AHandlerTheProgramAddsToTheLoopTakesOver) {
  VirtualClock clock;
  Log log;
  EXPECT_TRUE(run(loop_handler_takes_sigint(&log), clock));
  EXPECT_EQ(log, (Log{"the loop's handler"}));
  EXPECT_TRUE(sigint_is_default());
}

}  // namespace
}  // namespace looplab
