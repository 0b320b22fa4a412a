// shutdown() (new in 3.13) on a full queue with a blocked putter: the putter is woken and
// raises QueueShutDown, its item dropped, and so does every later put. Getters still get the
// items left; once the queue is empty they raise QueueShutDown instead of waiting. join()
// still waits for a task_done() per item put.
#include <string>

#include "looplab/lab/queue.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::lab::Queue;
using looplab::lab::QueueShutDown;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> putter(std::string name, Queue<int> queue, int item) {
  try {
    co_await queue.put(item);
  } catch (const QueueShutDown&) {
    say(name + " QueueShutDown; item " + std::to_string(item) + " dropped");
    co_return;
  }
  say(name + " put " + std::to_string(item));
}

Coro<void> getter(std::string name, Queue<int> queue) {
  int item = 0;
  try {
    item = co_await queue.get();
  } catch (const QueueShutDown&) {
    say(name + " QueueShutDown");
    co_return;
  }
  say(name + " got " + std::to_string(item));
  queue.task_done();
}

Coro<void> joiner(Queue<int> queue) {
  co_await queue.join();
  say("join() returns");
}

}  // namespace

LOOPLAB_SCENARIO(queue_shutdown_drains_then_raises) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue(2);
  queue.put_nowait(1);
  queue.put_nowait(2);
  (void)looplab::create_task(loop, putter("p", queue, 3));
  (void)looplab::create_task(loop, joiner(queue));
  run_turns(loop, 1);
  queue.shutdown();
  try {
    queue.put_nowait(4);
  } catch (const QueueShutDown&) {
    say("shutdown(); put_nowait(4) -> QueueShutDown");
  }
  run_turns(loop, 1);
  for (const char* name : {"g1", "g2", "g3"}) (void)looplab::create_task(loop, getter(name, queue));
  run_turns(loop, 1);
  try {
    (void)queue.get_nowait();
  } catch (const QueueShutDown&) {
    say("get_nowait() -> QueueShutDown, not QueueEmpty");
  }
  run_turns(loop, 1);
  loop.close();
}

// requires-python: 3.13
// expect: turn 1: shutdown(); put_nowait(4) -> QueueShutDown
// expect: turn 2: p QueueShutDown; item 3 dropped
// expect: turn 3: g1 got 1
// expect: turn 3: g2 got 2
// expect: turn 3: g3 QueueShutDown
// expect: turn 3: get_nowait() -> QueueShutDown, not QueueEmpty
// expect: turn 4: join() returns
