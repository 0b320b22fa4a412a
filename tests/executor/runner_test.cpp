// Runner, asyncio.Runner: run() more than once on one loop. The loop, the
// tasks left pending and the Context carry over from one call to the next;
// close() (or the end of the Runner's scope) ends as run() does.
#include "looplab/runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "executor/executor_support.hpp"
#include "looplab/context.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using RunnerTest = testing::Watched;

ContextVar<std::string> user("user", "nobody");

Coro<void> log_in(std::string name) {
  user.set(std::move(name));
  co_return;
}

Coro<std::string> whoami() { co_return user.get(); }

TEST_F(RunnerTest, MainTasksShareTheRunnersContext) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  runner.run(log_in("ada"));
  EXPECT_EQ(runner.run(whoami()), "ada");
  EXPECT_EQ(user.get(), "nobody");  // the caller's own Context never changed
}

TEST_F(RunnerTest, TheRunnersContextIsACopyMadeWhenItIsCreated) {
  VirtualClock clock;
  Token<std::string> before = user.set("grace");
  Runner runner({.clock = &clock});
  user.reset(before);
  EXPECT_EQ(runner.run(whoami()), "grace");
}

TEST_F(RunnerTest, AGivenContextHoldsWhatTheMainTaskSet) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  Context context;
  runner.run(log_in("alan"), context);
  EXPECT_EQ(context.run([] { return user.get(); }), "alan");
  EXPECT_EQ(runner.run(whoami()), "nobody");  // the Runner's own Context: untouched
}

Coro<void> set_keeping_token(std::optional<Token<std::string>>* token) {
  token->emplace(user.set("edsger"));
  co_return;
}

Coro<void> reset_with(std::optional<Token<std::string>>* token) {
  user.reset(**token);
  co_return;
}

// As in asyncio, where the main tasks run in the Runner's one Context object.
TEST_F(RunnerTest, ATokenFromOneCallResetsInTheNext) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  std::optional<Token<std::string>> token;
  runner.run(set_keeping_token(&token));
  EXPECT_EQ(testing::thrown_by([&] { runner.run(reset_with(&token)); }), "");
  EXPECT_EQ(runner.run(whoami()), "nobody");
}

Coro<void> tick(std::vector<int>* ticks) {
  try {
    for (int n = 0;; ++n) {
      ticks->push_back(n);
      co_await sleep(0s);
    }
  } catch (const CancelledError&) {
    ticks->push_back(-1);  // cancelled: what close() does to a leftover
    throw;
  }
}

Coro<void> start_ticking(std::vector<int>* ticks) {
  (void)create_task(get_running_loop(), tick(ticks));
  co_return;
}

Coro<void> yield_twice() {
  co_await sleep(0s);
  co_await sleep(0s);
}

TEST_F(RunnerTest, ALeftoverTaskGoesOnDuringTheNextCallAndCloseCancelsIt) {
  VirtualClock clock;
  std::vector<int> ticks;
  Runner runner({.clock = &clock});
  runner.run(start_ticking(&ticks));
  EXPECT_EQ(ticks, (std::vector<int>{0}));  // the stop callback's turn
  runner.run(yield_twice());
  EXPECT_EQ(ticks, (std::vector<int>{0, 1, 2, 3, 4}));  // a tick a turn: 4 turns
  runner.close();
  EXPECT_EQ(ticks, (std::vector<int>{0, 1, 2, 3, 4, -1}));
}

TEST_F(RunnerTest, LeavingItsScopeClosesIt) {
  VirtualClock clock;
  std::vector<int> ticks;
  {
    Runner runner({.clock = &clock});
    runner.run(start_ticking(&ticks));
  }
  EXPECT_EQ(ticks, (std::vector<int>{0, -1}));
}

TEST_F(RunnerTest, AClosedRunnerRefusesToRunAndClosingAgainDoesNothing) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  EventLoop& loop = runner.get_loop();
  runner.close();
  EXPECT_TRUE(loop.is_closed());
  runner.close();
  EXPECT_EQ(testing::thrown_by([&] { runner.run(whoami()); }), "RuntimeError: Runner is closed");
  EXPECT_EQ(testing::thrown_by([&] { (void)runner.get_loop(); }), "RuntimeError: Runner is closed");
}

Coro<void> stop_then_look(std::string* seen) {
  user.set("barbara");
  get_running_loop().stop();
  co_await sleep(0s);
  co_await sleep(0s);
  *seen = user.get();
}

// A main task still pending when run() ends goes on in its own Context, and
// the next main task sees what it had set.
TEST_F(RunnerTest, AMainTaskLeftPendingKeepsItsContext) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  std::string seen;
  EXPECT_EQ(testing::thrown_by([&] { runner.run(stop_then_look(&seen)); }),
            "RuntimeError: Event loop stopped before Future completed.");
  EXPECT_EQ(runner.run(whoami()), "barbara");
  EXPECT_EQ(seen, "barbara");
}

Coro<void> close_from_inside(Runner* runner, std::string* error) {
  *error = testing::thrown_by([runner] { runner->close(); });
  co_return;
}

// As asyncio: the cleanup cancelled the main task, which ends cancelled, and
// the loop could not close, so the Runner is not closed either.
TEST_F(RunnerTest, CloseFromInsideAMainTaskFailsAndTheRunnerGoesOn) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  std::string error;
  EXPECT_EQ(testing::thrown_by([&] { runner.run(close_from_inside(&runner, &error)); }),
            "CancelledError");
  EXPECT_EQ(error, "RuntimeError: Cannot close a running event loop");
  EXPECT_EQ(runner.run(whoami()), "nobody");
  runner.close();
  EXPECT_EQ(testing::thrown_by([&] { (void)runner.get_loop(); }), "RuntimeError: Runner is closed");
}

Coro<std::string> run_inside(Runner* runner) {
  try {
    runner->run(whoami());
  } catch (const RuntimeError& error) {
    co_return error.what();
  }
  co_return "ran";
}

TEST_F(RunnerTest, RunInsideARunningLoopIsRefused) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  Runner inner({.clock = &clock});
  EXPECT_EQ(runner.run(run_inside(&inner)),
            "Runner.run() cannot be called from a running event loop");
  EXPECT_EQ(inner.run(whoami()), "nobody");  // refused, but still usable
}

TEST_F(RunnerTest, DebugTurnsTheLoopsDebugModeOnOrOff) {
  VirtualClock clock;
  Runner debugging({.debug = true, .clock = &clock});
  EXPECT_TRUE(debugging.get_loop().get_debug());
  Runner quiet({.debug = false, .clock = &clock});
  EXPECT_FALSE(quiet.get_loop().get_debug());
}

Coro<int> fail() {
  co_await sleep(1s);
  throw ValueError("no");
}

TEST_F(RunnerTest, AnErrorOfTheMainTaskComesOutAndTheRunnerGoesOn) {
  VirtualClock clock;
  Runner runner({.clock = &clock});
  EXPECT_EQ(testing::thrown_by([&] { runner.run(fail()); }), "ValueError: no");
  EXPECT_EQ(runner.run(whoami()), "nobody");
}

}  // namespace
}  // namespace looplab
