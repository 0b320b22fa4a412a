// Cancelled putters never keep a slot from the others, and their items are never put. A
// putter cancelled while it waits is passed over by the get that follows. A putter that a
// get woke, cancelled before it resumes, leaves the line and wakes the next putter, since
// the slot is still free.
#include <map>
#include <string>

#include "looplab/lab/queue.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::lab::Queue;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> putter(std::string name, Queue<int> queue, int item) {
  try {
    co_await queue.put(item);
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled; qsize() -> " + std::to_string(queue.qsize()));
    throw;
  }
  say(name + " put " + std::to_string(item));
}

}  // namespace

LOOPLAB_SCENARIO(queue_cancelled_putters_pass_the_slot_on) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue(1);
  queue.put_nowait(0);
  std::map<std::string, looplab::Task<void>> tasks;
  int item = 1;
  for (const char* name : {"a", "b", "c", "d"})
    tasks.emplace(name, looplab::create_task(loop, putter(name, queue, item++)));
  run_turns(loop, 1);
  say(std::string("full() -> ") + py(queue.full()) + "; four putters wait");
  tasks.at("a").cancel();
  int got = queue.get_nowait();
  say("a cancelled while waiting; get_nowait() -> " + std::to_string(got) +
      " passes it over and wakes b");
  run_turns(loop, 1);
  got = queue.get_nowait();
  say("get_nowait() -> " + std::to_string(got) + " wakes c; c.cancel() -> " +
      py(tasks.at("c").cancel()) + " before c resumes");
  run_turns(loop, 1);
  run_turns(loop, 1);
  got = queue.get_nowait();
  say("get_nowait() -> " + std::to_string(got) + "; 1 and 3 were never put: " + queue.repr());
  loop.close();
}

// expect: turn 1: full() -> True; four putters wait
// expect: turn 1: a cancelled while waiting; get_nowait() -> 0 passes it over and wakes b
// expect: turn 2: a cancelled; qsize() -> 0
// expect: turn 2: b put 2
// expect: turn 2: get_nowait() -> 2 wakes c; c.cancel() -> True before c resumes
// expect: turn 3: c cancelled; qsize() -> 0
// expect: turn 4: d put 4
// expect: turn 4: get_nowait() -> 4; 1 and 3 were never put: <Queue maxsize=1 tasks=3>
