// Cancelling a gather(return_exceptions=True) cancels its children; once they are all done, it
// fails with the CancelledError of its last child in argument order (asyncio reads it from its
// loop variable): that child's own error if it was cancelled, one without a message if it had
// finished before the cancel.
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

looplab::Coro<int> slow() {
  co_await looplab::sleep(1s);
  co_return 1;
}

looplab::Coro<int> quick() { co_return 2; }

// gather(first, second, return_exceptions=True), cancelled once `quick` is done.
looplab::Coro<void> cancel_gather(looplab::EventLoop* loop, std::string name, bool quick_last) {
  looplab::Task<int> waits = looplab::create_task(*loop, slow());
  looplab::Task<int> finishes = looplab::create_task(*loop, quick());
  looplab::Future<std::vector<looplab::Outcome<int>>> outer =
      quick_last ? looplab::gather_return_exceptions(*loop, waits, finishes)
                 : looplab::gather_return_exceptions(*loop, finishes, waits);
  co_await looplab::sleep(0s);
  say(name + ": quick done: " + py(finishes.done()) + ", cancel('" + name + "') -> " +
      py(outer.cancel(name)));
  try {
    co_await outer;
  } catch (const looplab::CancelledError& error) {
    say(name + ": CancelledError('" + error.what() + "')");
  }
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  co_await cancel_gather(loop, "quick_last", true);
  co_await cancel_gather(loop, "slow_last", false);
}

}  // namespace

LOOPLAB_SCENARIO(gather_cancelled_ends_with_the_last_childs_error) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 10);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// expect: turn 2: quick_last: quick done: True, cancel('quick_last') -> True
// expect: turn 5: quick_last: CancelledError('')
// expect: turn 6: slow_last: quick done: True, cancel('slow_last') -> True
// expect: turn 9: slow_last: CancelledError('slow_last')
// expect: turn 10: main done: True
