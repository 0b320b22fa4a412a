// gather() under the eager factory watches a child that finished in its eager step only once
// every child exists: when a later child's step raises SystemExit out of gather(), no gather
// future was made, and the first child's error is its own, never retrieved.
#include <algorithm>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

// Collected, and printed sorted: when each report comes depends on when the
// unwinding (in Python, the garbage collector) frees the task.
std::vector<std::string> reports;

looplab::Coro<int> fails() {
  say("first child raises ValueError");
  throw looplab::ValueError("boom");
  co_return 0;
}

looplab::Coro<int> leaves() {
  say("second child raises SystemExit");
  throw looplab::SystemExit(3);
  co_return 0;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  try {
    (void)looplab::gather(*loop, fails(), leaves());
  } catch (const looplab::SystemExit&) {
    say("SystemExit out of gather()");
  }
  say("main goes on");
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(gather_watches_eagerly_done_children_once_all_exist) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    std::string described = looplab::describe_exception(context.exception);
    reports.push_back(context.message + " (" + described.substr(0, described.find(':')) + ")");
  });
  loop.set_task_factory(looplab::eager_task_factory);
  (void)looplab::create_task(loop, main_task(&loop));  // the loop is not running yet: lazy
  run_turns(loop, 1);
  std::sort(reports.begin(), reports.end());
  for (const std::string& report : reports) say("reported: " + report);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: first child raises ValueError
// expect: turn 1: second child raises SystemExit
// expect: turn 1: SystemExit out of gather()
// expect: turn 1: main goes on
// expect: turn 1: reported: Task exception was never retrieved (SystemExit)
// expect: turn 1: reported: Task exception was never retrieved (ValueError)
