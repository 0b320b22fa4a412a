// shutdown(immediate=True) (new in 3.13) discards the items left and counts each as a task
// done. A getter that a put woke finds its item gone when it resumes, and raises
// QueueShutDown; join() returns once the items taken before are done too.
#include <string>

#include "looplab/lab/queue.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::Future;
using looplab::lab::Queue;
using looplab::lab::QueueShutDown;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> worker(std::string name, Queue<int> queue, Future<void> hold) {
  int item = 0;
  try {
    item = co_await queue.get();
  } catch (const QueueShutDown&) {
    say(name + " QueueShutDown");
    co_return;
  }
  say(name + " got " + std::to_string(item));
  co_await hold;
  queue.task_done();
  say(name + " task_done()");
}

Coro<void> joiner(Queue<int> queue) {
  co_await queue.join();
  say("join() returns");
}

}  // namespace

LOOPLAB_SCENARIO(queue_shutdown_immediate_releases_join) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue;
  Future<void> hold = loop.create_future<void>();
  for (const char* name : {"a", "b", "c"})
    (void)looplab::create_task(loop, worker(name, queue, hold));
  run_turns(loop, 1);
  queue.put_nowait(1);
  queue.put_nowait(2);
  (void)looplab::create_task(loop, joiner(queue));
  run_turns(loop, 1);
  queue.put_nowait(3);  // wakes c
  queue.put_nowait(4);
  queue.shutdown(true);
  say("shutdown(immediate=True): qsize() -> " + std::to_string(queue.qsize()) + "; " +
      queue.repr());
  run_turns(loop, 1);
  hold.set_result();
  run_turns(loop, 2);
  try {
    queue.task_done();
  } catch (const looplab::ValueError& error) {
    say(std::string("ValueError: ") + error.what());
  }
  loop.close();
}

// requires-python: 3.13
// expect: turn 2: a got 1
// expect: turn 2: b got 2
// expect: turn 2: shutdown(immediate=True): qsize() -> 0; <Queue maxsize=0 tasks=2 shutdown>
// expect: turn 3: c QueueShutDown
// expect: turn 4: a task_done()
// expect: turn 4: b task_done()
// expect: turn 5: join() returns
// expect: turn 5: ValueError: task_done() called too many times
