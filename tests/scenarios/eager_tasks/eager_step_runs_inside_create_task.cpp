// An eager task's first step runs inside create_task(), between the creator's before and after;
// once it suspends it goes on as a lazy task, resuming in a later turn.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> child() {
  say("child: first step");
  co_await looplab::sleep(0s);
  say("child: resumes");
  co_return 7;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  say("main: before create_task()");
  looplab::Task<int> task = looplab::create_task(*loop, child());
  say(std::string("main: after create_task(); child done: ") + py(task.done()));
  int value = co_await task;
  say("main: awaited " + std::to_string(value));
}

}  // namespace

LOOPLAB_SCENARIO(eager_step_runs_inside_create_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 3);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: main: before create_task()
// expect: turn 1: child: first step
// expect: turn 1: main: after create_task(); child done: False
// expect: turn 2: child: resumes
// expect: turn 3: main: awaited 7
