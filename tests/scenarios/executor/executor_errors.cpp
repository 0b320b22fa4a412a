// The executor's refusals and their texts: a pool of no threads, a submit
// after shutdown (directly or through run_in_executor), a default executor
// that is not one, the default executor after shutdown_default_executor(),
// and run_in_executor() on a closed loop.
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::show;

namespace {

template <typename F>
void attempt(const std::string& label, F action) {
  try {
    action();
  } catch (const looplab::ValueError& error) {
    trace(label + ": ValueError: " + error.what());
  } catch (const looplab::TypeError& error) {
    trace(label + ": TypeError: " + error.what());
  } catch (const looplab::RuntimeError& error) {
    trace(label + ": RuntimeError: " + error.what());
  }
}

void never() { trace("never"); }
int add(int a, int b) { return a + b; }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  attempt("max_workers=0", [] { looplab::concurrent::ThreadPoolExecutor pool(0); });
  looplab::concurrent::ThreadPoolExecutor executor(1);
  executor.shutdown();
  attempt("submit after shutdown", [&executor] { (void)executor.submit(never); });
  attempt("run_in_executor after shutdown",
          [&loop, &executor] { (void)loop.run_in_executor(&executor, never); });
  attempt("set_default_executor(None)", [&loop] { loop.set_default_executor(nullptr); });
  looplab::Coro<void> shutdown = loop.shutdown_default_executor();
  co_await std::move(shutdown);
  attempt("run_in_executor(None) after shutdown_default_executor()",
          [&loop] { (void)loop.run_in_executor(nullptr, never); });
  looplab::concurrent::ThreadPoolExecutor own(1);
  looplab::Future<int> sum = loop.run_in_executor(&own, add, 1, 2);
  int total = co_await sum;
  show("an executor of one's own still works: ", total);
  own.shutdown();
}

}  // namespace

LOOPLAB_SCENARIO(executor_errors) {
  looplab::run(main_coroutine());
  looplab::EventLoop loop;
  loop.close();
  attempt("run_in_executor on a closed loop",
          [&loop] { (void)loop.run_in_executor(nullptr, never); });
}

// Some lines are longer than clang-format's 100 columns: keep them whole.
// clang-format off
// expect: max_workers=0: ValueError: max_workers must be greater than 0
// expect: submit after shutdown: RuntimeError: cannot schedule new futures after shutdown
// expect: run_in_executor after shutdown: RuntimeError: cannot schedule new futures after shutdown
// expect: set_default_executor(None): TypeError: executor must be ThreadPoolExecutor instance
// expect: run_in_executor(None) after shutdown_default_executor(): RuntimeError: Executor shutdown has been called
// expect: an executor of one's own still works: 3
// expect: run_in_executor on a closed loop: RuntimeError: Event loop is closed
// clang-format on
