// run() ends as asyncio.run() does: it cancels the tasks left, then waits
// for the default executor's threads (shutdown_default_executor), then
// closes the loop: a call left running in a thread, fire-and-forget or
// abandoned by a cancelled task, has finished when run() returns.
#include <algorithm>
#include <chrono>
#include <latch>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::show;
using namespace std::chrono_literals;

namespace {

std::latch abandoned_started(1);
std::latch task_cancelled(1);
std::latch main_returned(1);
looplab::testing::executor::SharedList finished;

void abandoned() {
  abandoned_started.count_down();
  task_cancelled.wait();
  finished.append("the call the cancelled task awaited");
}

void fire_and_forget() {
  main_returned.wait();
  finished.append("the fire-and-forget call");
}

looplab::Coro<void> waiter() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<void> call = loop.run_in_executor(nullptr, abandoned);
  try {
    co_await call;
  } catch (const looplab::CancelledError&) {
    trace("waiter: cancelled by run()");
    task_cancelled.count_down();
    throw;
  }
}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<void> task = looplab::create_task(loop, waiter());
  co_await looplab::sleep(0s);
  // Once the call runs, cancelling its future cannot stop it; while it still
  // waits in the pool's queue, it could (and then it would never run). A
  // waiter already done could not submit it: then it will never start.
  if (!task.done()) abandoned_started.wait();
  looplab::Future<void> forgotten = loop.run_in_executor(nullptr, fire_and_forget);
  trace("main returns");
  main_returned.count_down();
}

}  // namespace

LOOPLAB_SCENARIO(run_waits_for_executor_work) {
  looplab::run(main_coroutine());
  std::vector<std::string> calls = finished.snapshot();
  std::sort(calls.begin(), calls.end());
  show("after run(): ", looplab::testing::executor::py_list(calls));
}

// expect: main returns
// expect: waiter: cancelled by run()
// expect: after run(): ['the call the cancelled task awaited', 'the fire-and-forget call']
