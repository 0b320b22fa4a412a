// Helpers shared by the eager-task tests: the task tests' helpers, and a
// coroutine that logs its steps so a test can see where each one ran
// (inside create_task(), or in a later turn).
#pragma once

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

/// create_task() from inside a running loop: runs `body` as a task's
/// coroutine for one turn (the loop runs, so eager start applies), then
/// returns. A test's assertions about create_task() go in `body`.
template <typename F>
void inside_running_loop(TestLoop& t, F body) {
  t.loop.call_soon(std::move(body));
  t.turn();
}

}  // namespace looplab::testing
