// current_task() is the task whose step runs, inside awaited coroutines too; None in plain
// callbacks.
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::TaskBase* task = nullptr;

const char* repr(looplab::TaskBase* current) { return current == nullptr ? "None" : "a task"; }

looplab::Coro<looplab::TaskBase*> who() { co_return looplab::TaskBase::current(); }

looplab::Coro<void> body(looplab::EventLoop* loop) {
  looplab::TaskBase* me = looplab::TaskBase::current();
  say(std::string("in the task: current_task() is the task: ") + py(me == task));
  looplab::TaskBase* inner = co_await who();
  say(std::string("in an awaited coroutine: ") + py(inner == task));
  loop->call_soon([] { say(std::string("in a callback: ") + repr(looplab::TaskBase::current())); });
  co_await looplab::sleep(0s);
  say(std::string("after a yield: ") + py(looplab::TaskBase::current() == task) +
      "; all_tasks: " + std::to_string(looplab::all_tasks(*loop).size()));
}

}  // namespace

LOOPLAB_SCENARIO(current_task_inside_and_outside) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  say(std::string("outside: ") + repr(looplab::TaskBase::current()));
  looplab::Task<void> handle = looplab::create_task(loop, body(&loop));
  task = &handle.base();
  say("all_tasks before the first step: " + std::to_string(looplab::all_tasks(loop).size()));
  run_turns(loop, 2);
  say("all_tasks at the end: " + std::to_string(looplab::all_tasks(loop).size()));
  loop.close();
}

// expect: turn 0: outside: None
// expect: turn 0: all_tasks before the first step: 1
// expect: turn 1: in the task: current_task() is the task: True
// expect: turn 1: in an awaited coroutine: True
// expect: turn 2: in a callback: None
// expect: turn 2: after a yield: True; all_tasks: 1
// expect: turn 2: all_tasks at the end: 0
