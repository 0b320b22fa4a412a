// CPython 3.12+: gather() of children that are all done is done when it returns; awaiting it costs
// no turn. (3.11 handles every child through call_soon: done one turn later.)
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<int> first = loop.create_future<int>();
  looplab::Future<int> second = loop.create_future<int>();
  first.set_result(1);
  second.set_result(2);
  looplab::Future<std::vector<int>> gathering = looplab::gather(loop, first, second);
  say(std::string("gather() returned; done() -> ") + py(gathering.done()));
  std::vector<int> values = co_await gathering;
  say("awaited: [" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + "]");
}

}  // namespace

LOOPLAB_SCENARIO(gather_of_done_children_is_done_at_once) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task());
  run_turns(loop, 1);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: gather() returned; done() -> True
// expect: turn 1: awaited: [1, 2]
// expect: turn 1: main done: True
