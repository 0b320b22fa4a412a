// Cancelling a gather() cancels its children; the awaiting task then gets CancelledError.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> child(std::string name, std::chrono::seconds delay) {
  try {
    co_await looplab::sleep(delay);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), name + " cancelled");
    throw;
  }
  co_return 0;
}

looplab::Coro<void> waiter(looplab::Future<std::vector<int>> gathering) {
  try {
    co_await gathering;
  } catch (const looplab::CancelledError& error) {
    say_at(looplab::get_running_loop(),
           std::string("waiter got CancelledError('") + error.what() + "')");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> a = looplab::create_task(loop, child("a", 1s));
  looplab::Task<int> b = looplab::create_task(loop, child("b", 2s));
  looplab::Future<std::vector<int>> gathering = looplab::gather(loop, a, b);
  looplab::Task<void> task = looplab::create_task(loop, waiter(gathering));
  co_await looplab::sleep(500ms);
  say_at(loop, std::string("gather.cancel('stop all') -> ") + py(gathering.cancel("stop all")));
  try {
    co_await task;
  } catch (const looplab::CancelledError&) {
  }
  say_at(loop, std::string("a cancelled: ") + py(a.cancelled()) + ", b cancelled: " +
                   py(b.cancelled()) + ", waiter cancelled: " + py(task.cancelled()));
  say_at(loop, std::string("gather: done() -> ") + py(gathering.done()) + ", cancelled() -> " +
                   py(gathering.cancelled()));
}

}  // namespace

LOOPLAB_SCENARIO(cancel_gather_cancels_children) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.500 gather.cancel('stop all') -> True
// expect: t=0.500 a cancelled
// expect: t=0.500 b cancelled
// expect: t=0.500 waiter got CancelledError('stop all')
// expect: t=0.500 a cancelled: True, b cancelled: True, waiter cancelled: True
// expect: t=0.500 gather: done() -> True, cancelled() -> False
