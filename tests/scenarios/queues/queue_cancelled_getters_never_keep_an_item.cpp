// Cancelled getters never keep an item from the others. A getter cancelled while it waits
// is passed over by the put that follows. A getter that a put woke, cancelled before it
// resumes, leaves the line and wakes the next getter, since the item is still there.
#include <map>
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
  int item = 0;
  try {
    item = co_await queue.get();
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled; qsize() -> " + std::to_string(queue.qsize()));
    throw;
  }
  say(name + " got " + std::to_string(item));
}

}  // namespace

LOOPLAB_SCENARIO(queue_cancelled_getters_never_keep_an_item) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue;
  std::map<std::string, looplab::Task<void>> tasks;
  for (const char* name : {"a", "b", "c", "d"})
    tasks.emplace(name, looplab::create_task(loop, getter(name, queue)));
  run_turns(loop, 1);
  say("waiting: " + queue.repr());
  tasks.at("a").cancel();
  queue.put_nowait(1);
  say("a cancelled while waiting; put_nowait(1) passes it over and wakes b");
  run_turns(loop, 1);
  queue.put_nowait(2);
  say(std::string("put_nowait(2) wakes c; c.cancel() -> ") + py(tasks.at("c").cancel()) +
      " before c resumes");
  run_turns(loop, 1);
  say("c woke d, the item being still there; qsize() -> " + std::to_string(queue.qsize()));
  run_turns(loop, 1);
  say("done: " + queue.repr());
  loop.close();
}

// expect: turn 1: waiting: <Queue maxsize=0 _getters[4]>
// expect: turn 1: a cancelled while waiting; put_nowait(1) passes it over and wakes b
// expect: turn 2: a cancelled; qsize() -> 1
// expect: turn 2: b got 1
// expect: turn 2: put_nowait(2) wakes c; c.cancel() -> True before c resumes
// expect: turn 3: c cancelled; qsize() -> 1
// expect: turn 3: c woke d, the item being still there; qsize() -> 1
// expect: turn 4: d got 2
// expect: turn 4: done: <Queue maxsize=0 tasks=2>
