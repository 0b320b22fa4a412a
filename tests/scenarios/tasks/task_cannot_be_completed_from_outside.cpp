// Task.set_result() and Task.set_exception() raise RuntimeError: a task ends
// only when its coroutine does, and the refusal leaves it running.
#include <optional>
#include <string>

#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;

using looplab::testing::run_turns;
using looplab::testing::say;
using looplab::testing::trace;

namespace {

looplab::Coro<int> worker() {
  say("worker starts");
  co_await looplab::sleep(0s);  // a bare yield: one turn
  say("worker returns 7");
  co_return 7;
}

template <typename F>
void attempt(const std::string& what, F&& fn) {
  try {
    fn();
    trace(what + " -> accepted");
  } catch (const looplab::RuntimeError& e) {
    trace(what + " -> RuntimeError: " + e.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(task_cannot_be_completed_from_outside) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<int> task = looplab::create_task(loop, worker());
  run_turns(loop, 1);
  attempt("task.set_result(1)", [&] { task.set_result(1); });
  attempt("task.set_exception(e)", [&] { task.set_exception(looplab::ValueError("outside")); });
  trace(std::string("done: ") + (task.done() ? "True" : "False"));
  run_turns(loop, 2);
  trace("result: " + std::to_string(task.result()));
  attempt("task.set_result(1)", [&] { task.set_result(1); });
  loop.close();
}

// expect: turn 1: worker starts
// expect: task.set_result(1) -> RuntimeError: Task does not support set_result operation
// expect: task.set_exception(e) -> RuntimeError: Task does not support set_exception operation
// expect: done: False
// expect: turn 2: worker returns 7
// expect: result: 7
// expect: task.set_result(1) -> RuntimeError: Task does not support set_result operation
