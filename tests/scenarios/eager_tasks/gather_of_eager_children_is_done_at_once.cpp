// gather() over children that all finished in their eager steps is done when it returns: awaiting
// it costs no turn, and the whole fan-out takes one turn.
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> square(int number) { co_return number* number; }

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  std::vector<looplab::Future<int>> children;
  for (int number = 1; number <= 3; ++number) {
    children.push_back(looplab::create_task(*loop, square(number)));
  }
  looplab::Future<std::vector<int>> gathering = looplab::gather(*loop, children);
  say(std::string("gather() returned; done: ") + py(gathering.done()));
  std::vector<int> values = co_await gathering;
  say("awaited [" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + ", " +
      std::to_string(values[2]) + "]");
}

}  // namespace

LOOPLAB_SCENARIO(gather_of_eager_children_is_done_at_once) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 1);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: gather() returned; done: True
// expect: turn 1: awaited [1, 4, 9]
// expect: turn 1: main done: True
