// CPython 3.13: shutdown_default_executor(timeout) waits at most `timeout`
// seconds for the default executor's threads; then it warns, shuts the
// executor down without waiting, and returns. The default executor is then
// gone for good, and close() does not wait for the call either: it returns
// while the call still runs. (3.12 awaits the threads' end whatever the timeout.)
#include <latch>

#include "looplab/event_loop.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;

namespace {

std::latch started(1);
std::latch release(1);

void blocking() {
  started.count_down();
  release.wait();
  trace("the call returns");
}

void never() { trace("never"); }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<void> call = loop.run_in_executor(nullptr, blocking);
  started.wait();
  looplab::Coro<void> shutdown = loop.shutdown_default_executor(0.05);
  co_await std::move(shutdown);
  trace("shutdown_default_executor() returned; the call still runs");
  try {
    (void)loop.run_in_executor(nullptr, never);
  } catch (const looplab::RuntimeError& error) {
    looplab::testing::executor::show("RuntimeError: ", error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(shutdown_default_executor_timeout) {
  looplab::EventLoop loop;
  loop.run_until_complete(main_coroutine());
  loop.close();
  trace("closed; the call still runs");
  release.count_down();
}  // the loop's destructor joins the thread, as CPython does at exit

// requires-python: 3.13
// expect: shutdown_default_executor() returned; the call still runs
// expect: RuntimeError: Executor shutdown has been called
// expect: closed; the call still runs
// expect: the call returns
// expect-stderr: The executor did not finishing joining its threads within
