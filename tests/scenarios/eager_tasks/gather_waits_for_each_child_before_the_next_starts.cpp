// gather() of coroutines wraps them one at a time and adds its done callback to each child
// before it makes the next. Under the eager factory the next child's first step runs inside
// gather(), so a callback that step adds to an earlier child comes after gather's: when that
// child finishes, gather's callback runs first, and the outer future is done when the later
// callback looks.
#include <chrono>
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::TaskBase* task_a = nullptr;                 // a's task, from current_task()
looplab::Future<std::vector<int>>* outer = nullptr;  // what gather() returned

looplab::Coro<int> a() {
  task_a = looplab::TaskBase::current();
  say("a: first step, then sleep(0)");
  co_await looplab::sleep(0s);
  say("a: returns 1");
  co_return 1;
}

looplab::Coro<int> b() {
  say("b: adds a done callback to a's task, and returns 2");
  task_a->as_future().add_done_callback_erased(
      looplab::Callback(
          [] { say(std::string("b's callback on a: gather done: ") + py(outer->done())); }),
      looplab::FutureBase::new_callback_id());
  co_return 2;
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Future<std::vector<int>> gathering = looplab::gather(*loop, a(), b());
  outer = &gathering;
  std::vector<int> values = co_await gathering;
  say("awaited [" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + "]");
}

}  // namespace

LOOPLAB_SCENARIO(gather_waits_for_each_child_before_the_next_starts) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 4);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: a: first step, then sleep(0)
// expect: turn 1: b: adds a done callback to a's task, and returns 2
// expect: turn 2: a: returns 1
// expect: turn 3: b's callback on a: gather done: True
// expect: turn 4: awaited [1, 2]
// expect: turn 4: main done: True
