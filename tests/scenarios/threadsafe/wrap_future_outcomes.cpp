// A coroutine awaits a concurrent future that another thread completes,
// through wrap_future(): the thread's result, the thread's exception, and a
// cancellation of the loop's side that reaches the concurrent future.
#include <chrono>
#include <string>
#include <thread>

#include "looplab/chain_future.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

const char* python_bool(bool value) { return value ? "True" : "False"; }

looplab::Coro<void> main_coroutine() {
  looplab::concurrent::Future<int> source;
  std::thread thread([source] { source.set_result(42); });
  int result = co_await looplab::wrap_future(source);
  trace("result: " + std::to_string(result));
  thread.join();

  source = looplab::concurrent::Future<int>();
  thread = std::thread([source] {
    source.set_exception(std::make_exception_ptr(looplab::ValueError("from the thread")));
  });
  try {
    co_await looplab::wrap_future(source);
  } catch (const looplab::ValueError& error) {
    trace(std::string("ValueError: ") + error.what());
  }
  thread.join();

  source = looplab::concurrent::Future<int>();
  looplab::Future<int> wrapped = looplab::wrap_future(source);
  trace(std::string("wrapped.cancel(): ") + python_bool(wrapped.cancel()));
  co_await looplab::sleep(0s);
  trace(std::string("the concurrent future is cancelled: ") + python_bool(source.cancelled()));

  source = looplab::concurrent::Future<int>();
  trace(std::string("set_running_or_notify_cancel(): ") +
        python_bool(source.set_running_or_notify_cancel()));
  wrapped = looplab::wrap_future(source);
  wrapped.cancel();
  co_await looplab::sleep(0s);
  trace(std::string("a running concurrent future refuses: cancelled=") +
        python_bool(source.cancelled()) + " running=" + python_bool(source.running()));
  source.set_result(0);
}

}  // namespace

LOOPLAB_SCENARIO(wrap_future_outcomes) { looplab::run(main_coroutine()); }

// expect: result: 42
// expect: ValueError: from the thread
// expect: wrapped.cancel(): True
// expect: the concurrent future is cancelled: True
// expect: set_running_or_notify_cancel(): True
// expect: a running concurrent future refuses: cancelled=False running=True
