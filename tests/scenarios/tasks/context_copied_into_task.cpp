// A task runs in a copy of its creator's context: later changes on either side stay on that side.
#include "looplab/context.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

looplab::Coro<void> body() {
  say("task sees " + request_id.get());
  request_id.set("set by the task");
  co_await looplab::sleep(0s);
  say("task sees " + request_id.get() + " in its next step");
}

}  // namespace

LOOPLAB_SCENARIO(context_copied_into_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  request_id.set("at creation");
  looplab::Task<void> task = looplab::create_task(loop, body());
  request_id.set("changed after creation");
  run_turns(loop, 2);
  say("creator sees " + request_id.get() + "; task done: " + py(task.done()));
  loop.close();
}

// expect: turn 1: task sees at creation
// expect: turn 2: task sees set by the task in its next step
// expect: turn 2: creator sees changed after creation; task done: True
