// With the eager task factory, a getter's first step runs inside create_task(): one that
// finds an item has it, and is done, before create_task() returns; one that finds the queue
// empty is in line by then, and goes on as a lazy task, a turn after the put that wakes it.
#include <string>

#include "looplab/queues.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::Queue;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> getter(std::string name, Queue<int> queue) {
  int item = co_await queue.get();
  say(name + " got " + std::to_string(item));
}

Coro<void> main_task(looplab::EventLoop* loop, Queue<int> queue) {
  looplab::Task<void> a = looplab::create_task(*loop, getter("a", queue));
  say(std::string("main: a.done() -> ") + py(a.done()) + "; " + queue.repr());
  looplab::Task<void> b = looplab::create_task(*loop, getter("b", queue));
  say(std::string("main: b.done() -> ") + py(b.done()) + "; " + queue.repr());
  queue.put_nowait(2);
  say("main: put_nowait(2) wakes b; qsize() -> " + std::to_string(queue.qsize()));
  co_await b;
  say("main: awaited b");
}

}  // namespace

LOOPLAB_SCENARIO(queue_eager_getters_inside_create_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  Queue<int> queue;
  queue.put_nowait(1);
  // The loop is not running yet: main starts lazily, its children eagerly.
  (void)looplab::create_task(loop, main_task(&loop, queue));
  run_turns(loop, 3);
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: a got 1
// expect: turn 1: main: a.done() -> True; <Queue maxsize=0 tasks=1>
// expect: turn 1: main: b.done() -> False; <Queue maxsize=0 _getters[1] tasks=1>
// expect: turn 1: main: put_nowait(2) wakes b; qsize() -> 1
// expect: turn 2: b got 2
// expect: turn 3: main: awaited b
