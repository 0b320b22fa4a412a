// Helpers shared by the TaskGroup tests: children that log, wait and fail
// on cue, on the task tests' loop (support/test_loop.hpp).
//
// Coroutines take everything by value or by pointer (chapter 6, pitfalls P3
// and P4), and nothing but a named local or a plain call is a co_await
// operand (P1).
#pragma once

#include <chrono>
#include <string>

#include "looplab/exception_group.hpp"
#include "looplab/task_group.hpp"
#include "looplab/timeout.hpp"
#include "tasks/support.hpp"

namespace looplab::testing {

/// Sleeps `work` seconds, then returns `value`, or throws ValueError(name)
/// if `fails`. Logs "NAME done", "NAME fails" or "NAME cancelled".
inline Coro<int> worker(Log* log, std::string name, int work, bool fails, int value = 1) {
  try {
    co_await sleep(std::chrono::seconds(work));
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
  if (fails) {
    log->push_back(name + " fails");
    throw ValueError(name);
  }
  log->push_back(name + " done");
  co_return value;
}

/// The messages of a group's exceptions, in order ("ValueError: a", ...).
inline std::vector<std::string> described(const ExceptionGroup& group) {
  std::vector<std::string> lines;
  for (const std::exception_ptr& error : group.exceptions()) lines.push_back(describe(error));
  return lines;
}

}  // namespace looplab::testing
