// Lazy tasks: code right after create_task() runs before the task's first step, so a listener
// registered there hears the task's first message.
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

LOOPLAB_SCENARIO(listener_registered_after_create_task_lazy) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 3);
  loop.close();
}

// expect: turn 1: main registered its listener after create_task()
// expect: turn 2: announcer: 1 listener(s)
// expect: turn 2: listener got hello
