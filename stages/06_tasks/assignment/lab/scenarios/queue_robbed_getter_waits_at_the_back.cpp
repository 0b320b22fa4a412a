// A getter woken by a put looks again when it resumes, a turn later. If the item was taken
// meanwhile, it waits again, at the back of the line: the next item goes to the getter that
// was behind it.
#include <string>

#include "looplab/lab/queue.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Coro;
using looplab::lab::Queue;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> getter(std::string name, Queue<int> queue) {
  int item = co_await queue.get();
  say(name + " got " + std::to_string(item));
}

}  // namespace

LOOPLAB_SCENARIO(queue_robbed_getter_waits_at_the_back) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue;
  (void)looplab::create_task(loop, getter("a", queue));
  (void)looplab::create_task(loop, getter("b", queue));
  run_turns(loop, 1);
  say("waiting: " + queue.repr());
  queue.put_nowait(1);
  int taken = queue.get_nowait();
  say("put_nowait(1) wakes a; get_nowait() -> " + std::to_string(taken) + " before a resumes");
  run_turns(loop, 1);
  say("a waits again, behind b: " + queue.repr());
  queue.put_nowait(2);
  run_turns(loop, 1);
  queue.put_nowait(3);
  run_turns(loop, 1);
  say("done: " + queue.repr());
  loop.close();
}

// expect: turn 1: waiting: <Queue maxsize=0 _getters[2]>
// expect: turn 1: put_nowait(1) wakes a; get_nowait() -> 1 before a resumes
// expect: turn 2: a waits again, behind b: <Queue maxsize=0 _getters[2] tasks=1>
// expect: turn 3: b got 2
// expect: turn 4: a got 3
// expect: turn 4: done: <Queue maxsize=0 tasks=3>
