// Helpers shared by the eager-task tests: the task tests' helpers, and a
// coroutine that logs its steps so a test can see where each one ran
// (inside create_task(), or in a later turn).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "looplab/gather.hpp"
#include "tasks/support.hpp"

namespace looplab::testing {

/// Logs "NAME starts", returns `value` at once if `waits` is false; else
/// yields one turn first (sleep(0)) and logs "NAME resumes".
inline Coro<int> step_logger(Log* log, std::string name, bool waits, int value) {
  log->push_back(name + " starts");
  if (waits) {
    co_await sleep(std::chrono::seconds(0));
    log->push_back(name + " resumes");
  }
  co_return value;
}

/// create_task() from inside a running loop: runs `body` as a callback for
/// one turn (the loop runs, so eager start applies), then returns. A test's
/// assertions about create_task() go in `body`, which must run to its end:
/// an exception it lets out goes to the loop's handler, and fails the test.
template <typename F>
void inside_running_loop(TestLoop& t, F body) {
  bool finished = false;
  t.loop.call_soon([&body, &finished] {
    body();
    finished = true;
  });
  t.turn();
  EXPECT_TRUE(finished) << "the callback ended early: "
                        << (t.reports.empty() ? std::string("?") : t.reports.back());
}

}  // namespace looplab::testing
