// Cancelling run_in_executor()'s future cancels the asyncio side at once and,
// one turn later, tries the concurrent future, which refuses: the call already
// runs. Nothing interrupts a thread: the function runs to its end and its
// result is dropped.
#include <chrono>
#include <latch>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;
using namespace std::chrono_literals;

namespace {

std::latch started(1);
std::latch release(1);
looplab::testing::executor::SharedList finished;

std::string blocking() {
  started.count_down();
  release.wait();
  finished.append("blocking");
  return "dropped";
}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::concurrent::ThreadPoolExecutor executor(1);
  looplab::Future<std::string> future = loop.run_in_executor(&executor, blocking);
  started.wait();
  show("cancel(): ", future.cancel());
  show("cancelled(): ", future.cancelled());
  co_await looplab::sleep(0s);
  release.count_down();
  executor.shutdown(true);
  show("the function ran to its end: ", finished.repr());
  co_await looplab::sleep(0s);
  show("after its result came back, cancelled(): ", future.cancelled());
}

}  // namespace

LOOPLAB_SCENARIO(cancel_does_not_interrupt_a_running_call) { looplab::run(main_coroutine()); }

// expect: cancel(): True
// expect: cancelled(): True
// expect: the function ran to its end: ['blocking']
// expect: after its result came back, cancelled(): True
