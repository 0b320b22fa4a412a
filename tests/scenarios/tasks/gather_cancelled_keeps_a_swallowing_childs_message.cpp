// A cancelled gather() whose last child swallowed the cancellation and returned still fails
// with CancelledError, carrying that task's own _cancel_message: the message of a cancel() that
// found the task without a future to cancel (so the task kept it, to throw in at its next step),
// none if cancel() was passed on to the future the task awaited (the future kept it).
#include <chrono>
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

// Waits `delay` (0s: a bare yield, no future to cancel); swallows a cancellation.
looplab::Coro<std::string> swallow(std::string name, std::chrono::seconds delay) {
  try {
    co_await looplab::sleep(delay);
  } catch (const looplab::CancelledError& error) {
    say(name + ": swallowed CancelledError('" + error.what() + "')");
  }
  co_return name;
}

looplab::Coro<void> cancel_gather(looplab::EventLoop* loop, std::string name,
                                  std::chrono::seconds delay, std::string second_message) {
  looplab::Task<std::string> child = looplab::create_task(*loop, swallow(name, delay));
  co_await looplab::sleep(0s);  // the child is now suspended in its sleep
  looplab::Future<std::vector<std::string>> outer = looplab::gather(*loop, child);
  if (!second_message.empty()) child.cancel(second_message);
  say(name + ": cancel('" + name + "') -> " + py(outer.cancel(name)));
  try {
    co_await outer;
  } catch (const looplab::CancelledError& error) {
    say(name + ": gather: CancelledError('" + error.what() +
        "'), child cancelled: " + py(child.cancelled()));
  }
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  co_await cancel_gather(loop, "yielding", 0s, "");    // the task keeps the message
  co_await cancel_gather(loop, "sleeping", 1s, "");    // the sleep's future takes it
  co_await cancel_gather(loop, "twice", 1s, "first");  // the future takes the first
}

}  // namespace

LOOPLAB_SCENARIO(gather_cancelled_keeps_a_swallowing_childs_message) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 14);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// expect: turn 2: yielding: cancel('yielding') -> True
// expect: turn 3: yielding: swallowed CancelledError('yielding')
// expect: turn 5: yielding: gather: CancelledError('yielding'), child cancelled: False
// expect: turn 6: sleeping: cancel('sleeping') -> True
// expect: turn 7: sleeping: swallowed CancelledError('sleeping')
// expect: turn 9: sleeping: gather: CancelledError(''), child cancelled: False
// expect: turn 10: twice: cancel('twice') -> True
// expect: turn 11: twice: swallowed CancelledError('first')
// expect: turn 13: twice: gather: CancelledError('twice'), child cancelled: False
// expect: turn 14: main done: True
