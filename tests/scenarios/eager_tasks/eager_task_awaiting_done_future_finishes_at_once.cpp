// An eager task that awaits a future already done does not suspend: it finishes inside
// create_task(); one that awaits a pending future goes on later.
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> child(std::string label, looplab::Future<int> future) {
  say(label + ": awaits the future");
  int value = co_await future;
  say(label + ": goes on with " + std::to_string(value));
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Future<int> ready = loop->create_future<int>();
  ready.set_result(5);
  looplab::Future<int> pending = loop->create_future<int>();
  looplab::Task<void> first = looplab::create_task(*loop, child("first", ready));
  looplab::Task<void> second = looplab::create_task(*loop, child("second", pending));
  say(std::string("first done: ") + py(first.done()) + "; second done: " + py(second.done()));
  pending.set_result(6);
  co_await second;
}

}  // namespace

LOOPLAB_SCENARIO(eager_task_awaiting_done_future_finishes_at_once) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 3);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: first: awaits the future
// expect: turn 1: first: goes on with 5
// expect: turn 1: second: awaits the future
// expect: turn 1: first done: True; second done: False
// expect: turn 2: second: goes on with 6
