// Task(coro, loop=loop, eager_start=True) starts eagerly without any task factory; the loop's
// create_task() stays lazy. (C++: create_task(loop, coro, {.eager_start = true}).)
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> child(std::string label) {
  say(label + " child: first step");
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<void> lazy = looplab::create_task(*loop, child("lazy"));
  looplab::Task<void> eager = looplab::create_task(*loop, child("eager"), {.eager_start = true});
  say(std::string("main: after both; lazy done: ") + py(lazy.done()) +
      ", eager done: " + py(eager.done()));
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(eager_start_without_factory) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  say(std::string("task factory: ") + (loop.get_task_factory() ? "set" : "None"));
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 2);
  loop.close();
}

// requires-python: 3.12
// expect: turn 0: task factory: None
// expect: turn 1: eager child: first step
// expect: turn 1: main: after both; lazy done: False, eager done: True
// expect: turn 2: lazy child: first step
