// A call still queued behind a busy worker can be cancelled: cancelling its
// asyncio future cancels the concurrent one (one turn later), and the worker
// skips it. The calls before and after it run.
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
looplab::testing::executor::SharedList ran;

std::string first() {
  started.count_down();
  release.wait();
  ran.append("first");
  return "first";
}

std::string record(std::string label) {
  ran.append(label);
  return label;
}

std::string joined(const std::string& a, const std::string& b) { return a + ", " + b; }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::concurrent::ThreadPoolExecutor executor(1);
  looplab::Future<std::string> busy = loop.run_in_executor(&executor, first);
  started.wait();
  looplab::Future<std::string> queued =
      loop.run_in_executor(&executor, record, std::string("second"));
  looplab::Future<std::string> after =
      loop.run_in_executor(&executor, record, std::string("third"));
  show("cancel the queued call: ", queued.cancel());
  co_await looplab::sleep(0s);
  release.count_down();
  std::string busy_result = co_await busy;
  std::string after_result = co_await after;
  show("results: ", joined(busy_result, after_result));
  show("ran: ", ran.repr());
  show("queued.cancelled(): ", queued.cancelled());
  executor.shutdown();
}

}  // namespace

LOOPLAB_SCENARIO(cancelled_queued_call_never_runs) { looplab::run(main_coroutine()); }

// expect: cancel the queued call: True
// expect: results: first, third
// expect: ran: ['first', 'third']
// expect: queued.cancelled(): True
