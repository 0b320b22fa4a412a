// Eager tasks: the same program, with eager_task_factory, loses the message: the task's first step
// ran inside create_task(), before the listener was registered.
#include <functional>
#include <vector>

#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

std::vector<std::function<void(const std::string&)>> listeners;

looplab::Coro<void> announcer() {
  say("announcer: " + std::to_string(listeners.size()) + " listener(s)");
  for (const auto& listener : listeners) listener("hello");
  co_return;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<void> task = looplab::create_task(*loop, announcer());
  listeners.push_back([](const std::string& message) { say("listener got " + message); });
  say("main registered its listener after create_task()");
  co_await task;
}

}  // namespace

LOOPLAB_SCENARIO(listener_registered_after_create_task_eager) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 3);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: announcer: 0 listener(s)
// expect: turn 1: main registered its listener after create_task()
