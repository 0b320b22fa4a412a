// shutdown(immediate=True) (new in 3.13) on a full queue: the item left is discarded and
// counted as a task done, which releases join(); the blocked putter is woken and raises
// QueueShutDown, its item dropped. Both resume in the next turn, join() first: it was woken
// first. From then on a get raises QueueShutDown at once, and task_done() has nothing left.
#include <string>

#include "looplab/queues.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::Queue;
using looplab::QueueShutDown;
using looplab::testing::py;
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
}

Coro<void> joiner(Queue<int> queue) {
  co_await queue.join();
  say("join() returns");
}

}  // namespace

LOOPLAB_SCENARIO(queue_shutdown_immediate_wakes_putter_and_join) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue(1);
  queue.put_nowait(1);
  (void)looplab::create_task(loop, putter("p", queue, 2));
  (void)looplab::create_task(loop, joiner(queue));
  run_turns(loop, 1);
  say(std::string("p waits: full() -> ") + py(queue.full()));
  queue.shutdown(true);
  say(std::string("shutdown(immediate=True): empty() -> ") + py(queue.empty()) + "; " +
      queue.repr());
  run_turns(loop, 1);
  (void)looplab::create_task(loop, getter("g", queue));
  run_turns(loop, 1);
  try {
    queue.task_done();
  } catch (const looplab::ValueError& error) {
    say(std::string("task_done() -> ValueError: ") + error.what());
  }
  loop.close();
}

// requires-python: 3.13
// expect: turn 1: p waits: full() -> True
// expect: turn 1: shutdown(immediate=True): empty() -> True; <Queue maxsize=1 shutdown>
// expect: turn 2: join() returns
// expect: turn 2: p QueueShutDown; item 2 dropped
// expect: turn 3: g QueueShutDown
// expect: turn 3: task_done() -> ValueError: task_done() called too many times
