// A thread cancels the concurrent future that run_coroutine_threadsafe()
// returned before the loop has even made the task. The cancellation still
// comes too late for the coroutine: when the loop makes the task, its first
// step is scheduled at once, and the chaining, seeing the concurrent future
// cancelled, posts task.cancel() with call_soon_threadsafe(), behind that step.
// The coroutine runs to its end; the concurrent future stays cancelled.
#include <string>
#include <thread>

#include "looplab/chain_future.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {

looplab::Coro<int> job(int* runs) {
  ++*runs;
  co_return 1;
}

}  // namespace

LOOPLAB_SCENARIO(run_coroutine_threadsafe_cancel_races_the_first_step) {
  looplab::EventLoop loop;
  int runs = 0;
  looplab::concurrent::Future<int> future;
  std::thread thread([&] {
    future = looplab::run_coroutine_threadsafe(job(&runs), loop);
    trace(std::string("cancel() before the loop's turn: ") + (future.cancel() ? "True" : "False"));
  });
  thread.join();
  for (int turn = 0; turn < 3; ++turn) {
    loop.call_soon([&] { loop.stop(); });
    loop.run_forever();
  }
  trace(std::string("the coroutine ran: ") + (runs > 0 ? "True" : "False"));
  trace(std::string("the concurrent future: cancelled=") + (future.cancelled() ? "True" : "False"));
  loop.close();
}

// expect: cancel() before the loop's turn: True
// expect: the coroutine ran: True
// expect: the concurrent future: cancelled=True
